namespace OrderService.Data.Resilience;

/// <summary>
/// The JSON reads under the same rules as the Order reads they stand for: the same operation names (so spans,
/// durations and retries count one use case whichever way its rows travel), the same rerun safety, the same
/// re-open of a cold stream whose first row fails, and no re-open once a row was handed on.
/// </summary>
public sealed partial class ResilientOrderStore
{
    public IAsyncEnumerable<OrderJson> GetManyJsonAsync(IReadOnlyCollection<Guid> ids, CancellationToken cancellationToken) =>
        StreamAsync("get_many", static (store, ids, token) => JsonOf(store).GetManyJsonAsync(ids, token), ids, cancellationToken);

    /// <summary>As <see cref="ListByCustomerAsync"/>: the lookahead is an ordinary call, the rows a stream re-opened from the start when its first row fails.</summary>
    public async Task<OrderJsonPage> ListByCustomerJsonAsync(CustomerOrdersQuery query, CancellationToken cancellationToken)
    {
        var page = await RunAsync("list_by_customer", RerunSafety.Always, static (store, query, token) => JsonOf(store).ListByCustomerJsonAsync(query, token), query, cancellationToken)
            .ConfigureAwait(false);
        return page with { Orders = StreamAsync("list_by_customer_rows", static (_, rows, _) => rows, page.Orders, CancellationToken.None) };
    }

    private static IOrderJsonReads JsonOf(IOrderStore store) =>
        store.JsonReads ?? throw new InvalidOperationException("The store beneath no longer offers its reads as JSON.");
}
