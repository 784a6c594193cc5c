using OrderService.Data.Resilience;

namespace OrderService.Data.MongoDb;

/// <summary>The store's list reads as API JSON, offered while Store:MongoDb:RawBsonToJson is on.</summary>
internal sealed class MongoOrderJsonReads(ResilientCalls calls, MongoOrderStore reads, MongoOrderStore? primary)
    : IOrderJsonReads
{
    public IAsyncEnumerable<OrderJsonRow> GetManyJsonAsync(IReadOnlyCollection<Guid> ids,
        CancellationToken cancellationToken) =>
        calls.StreamAsync("get_many", static (self, ids, token) => self.GetManyWithFallBackAsync(ids, token), this, ids,
            cancellationToken);

    /// <summary>The lookahead is one call; the rows are a stream, re-opened if its first row fails.</summary>
    public async Task<OrderJsonPage> ListByCustomerJsonAsync(CustomerOrdersQuery query,
        CancellationToken cancellationToken)
    {
        var page = await calls.RunAsync("list_by_customer", RerunSafety.Always, static (store, query, token) =>
            store.ListByCustomerJsonAsync(query, token), reads, query, cancellationToken);
        return page with { Orders =
            calls.StreamAsync("list_by_customer_rows", static (_, rows, _) => rows, reads, page.Orders,
            CancellationToken.None) };
    }

    private IAsyncEnumerable<OrderJsonRow> GetManyWithFallBackAsync(IReadOnlyCollection<Guid> ids,
        CancellationToken cancellationToken) =>
        primary is null
            ? reads.GetManyJsonAsync(ids, cancellationToken)
            : StandbyReadsOrderStore.StandbyThenPrimary(ids, reads.GetManyJsonAsync, primary.GetManyJsonAsync,
                static row => row.Id, cancellationToken);
}
