using OrderService.Data.Orders;

namespace OrderService.Data.Resilience;

/// <summary>Wraps the provider's store: every call bounded, brief faults retried, a down store not hammered.</summary>
public sealed class ResilientOrderStore(IOrderStore inner, ResilientCalls calls) : IOrderStore
{
    public Task<CreateResult> CreateAsync(NewOrder order, CancellationToken cancellationToken) =>
        calls.RunAsync("create", RerunSafety.Always, static (store, order, token) => store.CreateAsync(order, token),
            inner, order, cancellationToken);

    public Task<Order?> GetAsync(Guid id, CancellationToken cancellationToken) =>
        calls.RunAsync("get", RerunSafety.Always, static (store, id, token) => store.GetAsync(id, token), inner, id,
            cancellationToken);

    public async Task<TransitionResult> TransitionAsync(TransitionCommand command, CancellationToken cancellationToken)
    {
        try
        {
            var result = await calls.RunAsync("transition", RerunRule.Of(command), static (store, command, token) =>
                store.TransitionAsync(command, token), inner, command, cancellationToken);
            StoreTelemetry.Transition(calls.System, command.Action, OutcomeName(result.Outcome));
            return result;
        }
        catch (StoreUnavailableException)
        {
            StoreTelemetry.Transition(calls.System, command.Action, "unavailable");
            throw;
        }
    }

    /// <summary>A delete of keys older than a cutoff: a rerun deletes what is left, so always safe.</summary>
    public Task<int> ForgetKeysStoredBeforeAsync(DateTimeOffset storedBefore, int limit,
        CancellationToken cancellationToken) =>
        calls.RunAsync("forget_keys", RerunSafety.Always, static (store, batch, token) =>
            store.ForgetKeysStoredBeforeAsync(batch.StoredBefore, batch.Limit, token), inner,
            (StoredBefore: storedBefore, Limit: limit), cancellationToken);

    public IAsyncEnumerable<Order> GetManyAsync(IReadOnlyCollection<Guid> ids, CancellationToken cancellationToken) =>
        calls.StreamAsync("get_many", static (store, ids, token) => store.GetManyAsync(ids, token), inner, ids,
            cancellationToken);

    /// <summary>The lookahead is one call; the rows are a stream, re-opened if its first row fails.</summary>
    public async Task<OrderPage> ListByCustomerAsync(CustomerOrdersQuery query, CancellationToken cancellationToken)
    {
        var page = await calls.RunAsync("list_by_customer", RerunSafety.Always, static (store, query, token) =>
            store.ListByCustomerAsync(query, token), inner, query, cancellationToken);
        return page with { Orders =
            calls.StreamAsync("list_by_customer_rows", static (_, rows, _) => rows, inner, page.Orders,
            CancellationToken.None) };
    }

    /// <summary>Readiness goes through the circuit: red at once while it is open; one attempt, no retry.</summary>
    public Task CheckReadyAsync(CancellationToken cancellationToken) =>
        calls.RunAsync("ready", RerunSafety.Never, static async (store, _, token) =>
        {
            await store.CheckReadyAsync(token);
            return true;
        }, inner, 0, cancellationToken);

    /// <summary>Opens pooled connections outside the circuit (a slow warm-up is no outage); counts failures.</summary>
    public async Task<int> OpenPooledConnectionsAsync(int count, TimeSpan bound, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(bound);
        var opened = await Task.WhenAll(Enumerable.Range(0, count).Select(async _ =>
        {
            try
            {
                await inner.CheckReadyAsync(timeout.Token).WaitAsync(timeout.Token);
                return true;
            }
            catch (Exception) when (!cancellationToken.IsCancellationRequested)
            {
                // Best effort: a connection not opened now is opened by the request that needs it.
                return false;
            }
        }));
        return opened.Count(success => !success);
    }

    /// <summary>Creates the schema now if the store is reachable; safe to call any time.</summary>
    public Task PrepareAsync(CancellationToken cancellationToken) =>
        calls.RunAsync("prepare", RerunSafety.Always, static (_, _, _) => Task.FromResult(true), inner, 0,
            cancellationToken);

    // Enum.ToString allocates; these are the metric's attribute values.
    private static string OutcomeName(TransitionOutcome outcome) => outcome switch
    {
        TransitionOutcome.Applied => "applied",
        TransitionOutcome.NotFound => "not_found",
        TransitionOutcome.IllegalFromStatus => "illegal_from_status",
        TransitionOutcome.StaleVersion => "stale_version",
        _ => outcome.ToString().ToLowerInvariant(),
    };
}
