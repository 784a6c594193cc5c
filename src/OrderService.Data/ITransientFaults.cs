namespace OrderService.Data;

/// <summary>
/// Tells the resilience pipeline which driver errors are worth a retry (deadlocks, serialization
/// failures, busy databases, lost connections, timeouts). Everything else fails at once.
/// Each provider registers its own.
/// </summary>
public interface ITransientFaults
{
    bool IsTransient(Exception exception);
}
