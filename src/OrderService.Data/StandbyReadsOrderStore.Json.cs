using System.Runtime.CompilerServices;

namespace OrderService.Data;

/// <summary>The JSON reads with the standby's rules: a batch's ids the standby lacks are re-read on the primary; a listing reads the standby only.</summary>
public sealed partial class StandbyReadsOrderStore : IOrderJsonReads
{
    public IOrderJsonReads? JsonReads => primary.JsonReads is not null && standby.JsonReads is not null ? this : null;

    public async IAsyncEnumerable<OrderJson> GetManyJsonAsync(IReadOnlyCollection<Guid> ids, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var found = new HashSet<Guid>();
        await foreach (var order in Json(standby).GetManyJsonAsync(ids, cancellationToken).ConfigureAwait(false))
        {
            found.Add(order.Id); // before handing the row on: it is valid only until the stream moves
            yield return order;
        }

        var missing = ids.Where(id => !found.Contains(id)).Distinct().ToList();
        if (missing.Count == 0)
        {
            yield break;
        }

        await foreach (var order in Json(primary).GetManyJsonAsync(missing, cancellationToken).ConfigureAwait(false))
        {
            yield return order;
        }
    }

    public Task<OrderJsonPage> ListByCustomerJsonAsync(CustomerOrdersQuery query, CancellationToken cancellationToken) =>
        Json(standby).ListByCustomerJsonAsync(query, cancellationToken);

    private static IOrderJsonReads Json(IOrderStore store) =>
        store.JsonReads ?? throw new InvalidOperationException("A store beneath the standby reads no longer offers its reads as JSON.");
}
