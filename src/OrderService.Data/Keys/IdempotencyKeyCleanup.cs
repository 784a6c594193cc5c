using System.Diagnostics.Metrics;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace OrderService.Data.Keys;

/// <summary>Forgets keys older than the retention in the background; a failed sweep is retried next tick.</summary>
public sealed partial class IdempotencyKeyCleanup(IOrderStore store, IOptions<StoreOptions> options, TimeProvider clock,
    ILogger<IdempotencyKeyCleanup> logger)
    : BackgroundService
{
    private static readonly Counter<long> Forgotten = StoreTelemetry.Meter.CreateCounter<long>(
        "orderservice.idempotency_keys.forgotten",
            description: "Idempotency-Keys the clean-up deleted (on MongoDB: orders whose expired keys it removed).");

    private readonly IdempotencyKeyOptions _keys = options.Value.IdempotencyKeys;
    private readonly string _system = StoreTelemetry.SystemName(options.Value.Provider);

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(_keys.CleanupIntervalSeconds), clock);
        while (await timer.WaitForNextTickAsync(stoppingToken))
        {
            await SweepAsync(stoppingToken);
        }
    }

    /// <summary>One sweep now; returns how many rows went.</summary>
    public async Task<long> SweepAsync(CancellationToken cancellationToken)
    {
        var storedBefore = clock.GetUtcNow() - TimeSpan.FromHours(_keys.RetentionHours);
        long total = 0;
        try
        {
            int batch;
            do
            {
                batch = await store.ForgetKeysStoredBeforeAsync(storedBefore, _keys.CleanupBatchSize,
                    cancellationToken);
                total += batch;
                Forgotten.Add(batch, new KeyValuePair<string, object?>("db.system", _system));
            }
            while (batch > 0);
        }
        catch (Exception fault) when (!cancellationToken.IsCancellationRequested)
        {
            // The keys stay until the next sweep: a late clean-up costs disk space, never a wrong answer.
            Log.SweepFailed(logger, _system, total, fault.Message, fault is StoreUnavailableException ? null : fault);
            return total;
        }

        if (total > 0)
        {
            Log.Swept(logger, _system, total, storedBefore);
        }

        return total;
    }

    private static partial class Log
    {
        [LoggerMessage(EventId = 1, EventName = "IdempotencyKeysForgotten", Level = LogLevel.Information,
            Message = "The {System} store forgot {Count} Idempotency-Keys stored before {StoredBefore:O}.")]
        public static partial void Swept(ILogger logger, string system, long count, DateTimeOffset storedBefore);

        [LoggerMessage(EventId = 2, EventName = "IdempotencyKeyCleanupFailed", Level = LogLevel.Warning,
            Message = "The {System} store's Idempotency-Key clean-up stopped after {Count} keys and runs again at " +
                "the next interval: {Reason}")]
        public static partial void SweepFailed(ILogger logger, string system, long count, string reason,
            Exception? exception);
    }
}
