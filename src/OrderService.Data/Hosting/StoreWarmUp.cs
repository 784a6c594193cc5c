using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using OrderService.Data.Resilience;

namespace OrderService.Data.Hosting;

/// <summary>Creates the schema right after start-up, without blocking or failing it.</summary>
public sealed partial class StoreWarmUp(ResilientOrderStore store, IStoreSchema schema, IOptions<StoreOptions> options,
    IOptions<ResilienceOptions> resilience, ILogger<StoreWarmUp> logger) : BackgroundService
{
    private const int PooledConnectionsToOpen = 32;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        try
        {
            await store.PrepareAsync(stoppingToken);
            await store.CheckReadyAsync(stoppingToken);
            var bound = TimeSpan.FromSeconds(resilience.Value.AttemptTimeoutSeconds);
            var missed = await store.OpenPooledConnectionsAsync(PooledConnectionsToOpen - 1, bound, stoppingToken);
            if (missed > 0)
            {
                LogWarmUpShort(logger, missed, PooledConnectionsToOpen, bound.TotalSeconds);
            }
        }
        catch (StoreUnavailableException unavailable)
        {
            LogNotReady(logger, unavailable.Message);
            return;
        }
        catch (Exception fault) when (!stoppingToken.IsCancellationRequested)
        {
            // Not a fault of reachability (a schema script or configuration error): say so loudly, keep serving.
            LogSchemaFailed(logger, fault);
            return;
        }

        await WarnAboutOtherLayoutAsync(stoppingToken);
    }

    private async Task WarnAboutOtherLayoutAsync(CancellationToken stoppingToken)
    {
        var layout = options.Value.Layout;
        try
        {
            var other = await schema.FindOtherLayoutRowsAsync(stoppingToken);
            if (other.Count > 0)
            {
                LogOtherLayoutHoldsRows(logger, layout, OtherThan(layout), string.Join(", ", other));
            }
        }
        catch (Exception fault) when (!stoppingToken.IsCancellationRequested)
        {
            LogOtherLayoutUnknown(logger, fault.Message);
        }
    }

    private static StoreLayout OtherThan(StoreLayout layout) =>
        layout == StoreLayout.Relational ? StoreLayout.Document : StoreLayout.Relational;

    [LoggerMessage(Level = LogLevel.Warning, Message =
        "The order store is not ready yet ({Reason}); requests get 503 until it is.")]
    private static partial void LogNotReady(ILogger logger, string reason);

    [LoggerMessage(Level = LogLevel.Information, Message =
        "{Missed} of the {Total} pooled connections the warm-up opens were not open within {Seconds} s; requests " +
        "open them as they need them.")]
    private static partial void LogWarmUpShort(ILogger logger, int missed, int total, double seconds);

    [LoggerMessage(Level = LogLevel.Error, Message = "Preparing the order store failed.")]
    private static partial void LogSchemaFailed(ILogger logger, Exception exception);

    [LoggerMessage(Level = LogLevel.Warning, Message =
        "Store:Layout={Layout}, but this database also holds data of the {OtherLayout} layout, which the service " +
        "does not read: {Tables}. " +
        "Those orders are not shown. To see them, start with Store:Layout={OtherLayout}; to start afresh, point " +
        "ConnectionStrings:Orders at another database.")]
    private static partial void LogOtherLayoutHoldsRows(ILogger logger, StoreLayout layout, StoreLayout otherLayout,
        string tables);

    [LoggerMessage(Level = LogLevel.Warning, Message =
        "Could not check whether this database holds the other layout's data: {Reason}")]
    private static partial void LogOtherLayoutUnknown(ILogger logger, string reason);
}
