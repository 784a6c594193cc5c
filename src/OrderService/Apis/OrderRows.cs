using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using OrderService.Data;
using OrderService.Data.Orders;

namespace OrderService.Apis;

/// <summary>The rows an <see cref="OrderStream"/> writes, whichever way the store hands them over.</summary>
internal abstract class OrderRows : IAsyncDisposable
{
    private string? _customerId;
    private bool _nobody;

    /// <summary>These rows, of which only <paramref name="customerId"/>'s are written.</summary>
    public OrderRows OnlyOf(string customerId)
    {
        _nobody |= _customerId is not null && !string.Equals(_customerId, customerId, StringComparison.Ordinal);
        _customerId = customerId;
        return this;
    }

    /// <summary>Whether the current row is to be written.</summary>
    public bool Kept() => !_nobody && (_customerId is null || BelongsTo(_customerId));

    public abstract ValueTask<bool> MoveNextAsync();

    public abstract void Write(Utf8JsonWriter writer, JsonTypeInfo<Order> order);

    public abstract ValueTask DisposeAsync();

    protected abstract bool BelongsTo(string customerId);

    /// <summary>Orders, serialized with the API's JSON context.</summary>
    internal sealed class OfOrders(IAsyncEnumerator<Order> rows) : OrderRows
    {
        public override ValueTask<bool> MoveNextAsync() => rows.MoveNextAsync();

        public override void Write(Utf8JsonWriter writer, JsonTypeInfo<Order> order) =>
            JsonSerializer.Serialize(writer, rows.Current, order);

        public override ValueTask DisposeAsync() => rows.DisposeAsync();

        protected override bool BelongsTo(string customerId) =>
            string.Equals(rows.Current.CustomerId, customerId, StringComparison.Ordinal);
    }

    /// <summary>Orders the store already holds as API JSON: each writes its own bytes, the same the context would
    /// write.</summary>
    internal sealed class OfJson(IAsyncEnumerator<OrderJsonRow> rows) : OrderRows
    {
        public override ValueTask<bool> MoveNextAsync() => rows.MoveNextAsync();

        public override void Write(Utf8JsonWriter writer, JsonTypeInfo<Order> order) => rows.Current.WriteTo(writer);

        public override ValueTask DisposeAsync() => rows.DisposeAsync();

        protected override bool BelongsTo(string customerId) => rows.Current.BelongsTo(customerId);
    }
}
