using Microsoft.Extensions.Diagnostics.HealthChecks;
using OrderService.Data;

namespace OrderService.ServiceDefaults;

/// <summary>Readiness: the store answers a round trip, within the attempt timeout, with no retry.</summary>
public sealed class OrderStoreHealthCheck(IOrderStore store) : IHealthCheck
{
    public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context,
        CancellationToken cancellationToken = default)
    {
        try
        {
            await store.CheckReadyAsync(cancellationToken);
            return HealthCheckResult.Healthy();
        }
        catch (Exception fault) when (!cancellationToken.IsCancellationRequested)
        {
            return HealthCheckResult.Unhealthy(fault.Message, fault);
        }
    }
}
