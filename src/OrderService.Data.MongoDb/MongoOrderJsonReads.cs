using OrderService.Data.Resilience;

namespace OrderService.Data.MongoDb;

/// <summary>
/// The store's list reads as API JSON (<see cref="IOrderJsonReads"/>), offered while Store:MongoDb:RawBsonToJson is on
/// (the default). Each read is one call through the store's <see cref="ResilientCalls"/> under the Order reads'
/// operation names, so spans, durations, retries and the circuit count one use case whichever way its rows travel; a
/// stream whose first row fails is re-opened, never once a row was handed on. With reads on a secondary
/// (<paramref name="primary"/> given) the standby's rules hold: a batch's ids the secondary lacks are re-read on the
/// primary, a listing reads the secondary only.
/// </summary>
/// <param name="reads">The store the Order reads use (a secondary's, when the read preference allows one).</param>
/// <param name="primary">The store that reads the primary, when <paramref name="reads"/> may read a secondary.</param>
internal sealed class MongoOrderJsonReads(ResilientCalls calls, MongoOrderStore reads, MongoOrderStore? primary) : IOrderJsonReads
{
    public IAsyncEnumerable<OrderJsonRow> GetManyJsonAsync(IReadOnlyCollection<Guid> ids, CancellationToken cancellationToken) =>
        calls.StreamAsync("get_many", static (self, ids, token) => self.GetManyWithFallBackAsync(ids, token), this, ids, cancellationToken);

    /// <summary>The lookahead is an ordinary call, the rows a stream re-opened from the start when its first row fails.</summary>
    public async Task<OrderJsonPage> ListByCustomerJsonAsync(CustomerOrdersQuery query, CancellationToken cancellationToken)
    {
        var page = await calls.RunAsync("list_by_customer", RerunSafety.Always, static (store, query, token) => store.ListByCustomerJsonAsync(query, token), reads, query, cancellationToken);
        return page with { Orders = calls.StreamAsync("list_by_customer_rows", static (_, rows, _) => rows, reads, page.Orders, CancellationToken.None) };
    }

    private IAsyncEnumerable<OrderJsonRow> GetManyWithFallBackAsync(IReadOnlyCollection<Guid> ids, CancellationToken cancellationToken) =>
        primary is null
            ? reads.GetManyJsonAsync(ids, cancellationToken)
            : StandbyReadsOrderStore.StandbyThenPrimary(ids, reads.GetManyJsonAsync, primary.GetManyJsonAsync, static row => row.Id, cancellationToken);
}
