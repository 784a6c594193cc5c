namespace OrderService.Data;

/// <summary>
/// A store whose driver keeps idle connections an outage leaves dead; the resilience layer drops them.
/// </summary>
public interface IConnectionPool
{
    void DropIdleConnections();
}
