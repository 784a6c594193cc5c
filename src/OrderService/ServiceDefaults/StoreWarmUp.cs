using OrderService.Data;
using OrderService.Data.Resilience;

namespace OrderService.ServiceDefaults;

/// <summary>
/// Creates the schema right after start-up so the first request does not pay for it. It does not
/// block start-up and does not fail it: with the store down, the service starts, answers 503, and the
/// schema gate in <see cref="ResilientOrderStore"/> tries again on the next call. It then opens a batch of
/// pooled connections at once, so the first burst of a 100-client load does not queue behind a hundred
/// connection handshakes (server-side process forks on PostgreSQL) and time out into 503s.
/// </summary>
public sealed partial class StoreWarmUp(ResilientOrderStore store, ILogger<StoreWarmUp> logger) : BackgroundService
{
    private const int PooledConnectionsToOpen = 32;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        try
        {
            await store.PrepareAsync(stoppingToken).ConfigureAwait(false);
            await Task.WhenAll(Enumerable.Range(0, PooledConnectionsToOpen)
                .Select(_ => store.CheckReadyAsync(stoppingToken))).ConfigureAwait(false);
        }
        catch (StoreUnavailableException unavailable)
        {
            LogNotReady(logger, unavailable.Message);
        }
        catch (Exception fault) when (!stoppingToken.IsCancellationRequested)
        {
            // Not a fault of reachability (a schema script or configuration error): say so loudly, keep serving.
            LogSchemaFailed(logger, fault);
        }
    }

    [LoggerMessage(Level = LogLevel.Warning, Message = "The order store is not ready yet ({Reason}); requests get 503 until it is.")]
    private static partial void LogNotReady(ILogger logger, string reason);

    [LoggerMessage(Level = LogLevel.Error, Message = "Preparing the order store failed.")]
    private static partial void LogSchemaFailed(ILogger logger, Exception exception);
}
