namespace OrderService.Data;

/// <summary>A store whose driver keeps idle connections that an outage leaves dead.</summary>
public interface IConnectionPool
{
    void DropIdleConnections();
}
