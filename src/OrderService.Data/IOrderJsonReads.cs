using System.Text.Json;

namespace OrderService.Data;

/// <summary>
/// A store's two list reads (<see cref="IOrderStore.GetManyAsync"/> and the rows of <see cref="IOrderStore.ListByCustomerAsync"/>)
/// handed over as the API's JSON instead of Orders, for a store that holds orders in a shape it can translate straight
/// to that JSON (MongoDB's BSON). Same contract as the Order reads it stands for: the same orders, in the same order,
/// cold lazy streams that may be enumerated again from the start, rows streamed as they arrive, each call run through
/// the store's <see cref="Resilience.ResilientCalls"/> under the Order reads' operation names.
/// <para>
/// Not part of the port: the relational and SQLite stores build Orders anyway, and the API writes those with its own
/// JSON context, which the data layer does not see. A store that offers it builds it from its <see cref="StoreBundle"/>
/// (<see cref="StoreBundle.JsonReads"/>), the host registers it as a service, and the API asks for it and uses the port
/// when there is none.
/// </para>
/// </summary>
public interface IOrderJsonReads
{
    /// <summary>The orders among <paramref name="ids"/> that exist, each once, as API JSON (see <see cref="IOrderStore.GetManyAsync"/>).</summary>
    IAsyncEnumerable<OrderJsonRow> GetManyJsonAsync(IReadOnlyCollection<Guid> ids, CancellationToken cancellationToken);

    /// <summary>One page of a customer's orders as API JSON; its Next and its rows follow <see cref="IOrderStore.ListByCustomerAsync"/> exactly.</summary>
    Task<OrderJsonPage> ListByCustomerJsonAsync(CustomerOrdersQuery query, CancellationToken cancellationToken);
}

/// <summary>
/// One order of a JSON stream, as the store read it. Like a data reader's row it is valid only until the stream
/// moves on (a store may reuse one instance and the buffer beneath it for every row): read what you need, write it,
/// then move.
/// </summary>
public abstract class OrderJsonRow
{
    /// <summary>The order's id (the standby fall-back needs the ids a standby answered).</summary>
    public abstract Guid Id { get; }

    /// <summary>Whether the order is <paramref name="customerId"/>'s (ordinal, as <c>order.CustomerId == customerId</c>).</summary>
    public abstract bool BelongsTo(string customerId);

    /// <summary>
    /// Writes the order as one JSON object: exactly the bytes the API's JSON context writes for the same Order (property
    /// names and order, money with two decimals, UTC microsecond timestamps, nulls left out), with the writer's encoder.
    /// </summary>
    public abstract void WriteTo(Utf8JsonWriter writer);
}

/// <summary>One page of a customer's orders as API JSON: a cold stream and the next page's position (see <see cref="OrderPage"/>).</summary>
public sealed record OrderJsonPage(IAsyncEnumerable<OrderJsonRow> Orders, OrderPosition? Next)
{
    public static readonly OrderJsonPage Empty = new(AsyncEnumerable.Empty<OrderJsonRow>(), null);

    /// <summary>The page a lookahead describes, as <see cref="OrderPage.FromLookahead"/> does for Orders.</summary>
    public static OrderJsonPage FromLookahead(IReadOnlyList<OrderPosition> positions, int limit, Func<PageRange, IAsyncEnumerable<OrderJsonRow>> rows)
    {
        ArgumentNullException.ThrowIfNull(rows);
        return PageRange.FromLookahead(positions, limit, out var next) is { } range ? new OrderJsonPage(rows(range), next) : Empty;
    }
}
