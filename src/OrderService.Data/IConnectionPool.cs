namespace OrderService.Data;

/// <summary>
/// A store whose driver keeps idle connections that an outage leaves dead (Npgsql does not notice a
/// server restart until a dead connection is used). The resilience decorator drops them when a fault
/// says the connection broke or could not be made, so the next attempt, or the half-open call that
/// may close the circuit, connects afresh instead of drawing one dead connection after another.
/// A store's factory hands it over as <see cref="StoreBundle.Pool"/> when that applies.
/// </summary>
public interface IConnectionPool
{
    void DropIdleConnections();
}
