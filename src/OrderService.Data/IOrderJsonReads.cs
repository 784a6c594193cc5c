using System.Text.Json;

namespace OrderService.Data;

/// <summary>A store's two list reads as the API's JSON instead of Orders, with the Order reads' contract.</summary>
public interface IOrderJsonReads
{
    /// <summary>The orders among <paramref name="ids"/> that exist, each once, as API JSON.</summary>
    IAsyncEnumerable<OrderJsonRow> GetManyJsonAsync(IReadOnlyCollection<Guid> ids, CancellationToken cancellationToken);

    /// <summary>One page of a customer's orders as API JSON, exactly as ListByCustomerAsync pages.</summary>
    Task<OrderJsonPage> ListByCustomerJsonAsync(CustomerOrdersQuery query, CancellationToken cancellationToken);
}

/// <summary>One order of a JSON stream, as the store read it; valid only until the stream moves on.</summary>
public abstract class OrderJsonRow
{
    /// <summary>The order's id (the standby fall-back needs the ids a standby answered).</summary>
    public abstract Guid Id { get; }

    /// <summary>Whether the order is <paramref name="customerId"/>'s.</summary>
    public abstract bool BelongsTo(string customerId);

    /// <summary>Writes the order as the bytes the API's JSON context writes for the same Order.</summary>
    public abstract void WriteTo(Utf8JsonWriter writer);
}

/// <summary>One page of a customer's orders as API JSON: a cold stream and the next page's position.</summary>
public sealed record OrderJsonPage(IAsyncEnumerable<OrderJsonRow> Orders, OrderPosition? Next)
{
    public static readonly OrderJsonPage Empty = new(AsyncEnumerable.Empty<OrderJsonRow>(), null);

    /// <summary>The page a lookahead describes, as <see cref="OrderPage.FromLookahead"/> does for Orders.</summary>
    public static OrderJsonPage FromLookahead(IReadOnlyList<OrderPosition> positions, int limit, Func<PageRange,
        IAsyncEnumerable<OrderJsonRow>> rows)
    {
        ArgumentNullException.ThrowIfNull(rows);
        return PageRange.FromLookahead(positions, limit, out var next) is { } range
            ? new OrderJsonPage(rows(range), next) : Empty;
    }
}
