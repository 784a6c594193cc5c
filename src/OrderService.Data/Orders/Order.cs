namespace OrderService.Data.Orders;

/// <summary>One line of an order. Prices are per unit, with at most two decimals.</summary>
public sealed record OrderLine(string Sku, int Quantity, decimal UnitPrice);

/// <summary>
/// The small payload of an audit event. Only the fields of the step that wrote it are set,
/// so the stored JSON stays small and every layout stores the same shape.
/// </summary>
public sealed record OrderEventData(
    string? PaymentReference = null,
    string? Carrier = null,
    string? TrackingNumber = null,
    string? Reason = null,
    decimal? Total = null);

/// <summary>
/// One audit event. <see cref="Sequence"/> runs 1, 2, 3, … and always equals the order version it produced.
/// </summary>
public sealed record OrderEvent(int Sequence, string Type, DateTimeOffset At, OrderEventData Data);

/// <summary>An order as the service returns it: lines, total, status, version and its audit trail.</summary>
public sealed record Order(
    Guid Id,
    string CustomerId,
    OrderStatus Status,
    IReadOnlyList<OrderLine> Lines,
    decimal Total,
    int Version,
    DateTimeOffset CreatedAt,
    DateTimeOffset UpdatedAt,
    IReadOnlyList<OrderEvent> Events);
