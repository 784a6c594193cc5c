namespace OrderService.Contracts;

// Request bodies. Every member is nullable so that a missing field reaches validation and is reported
// by name (lines[2].quantity) instead of failing deserialization with a generic message.

/// <summary>POST /orders: who orders what.</summary>
/// <param name="CustomerId">1–64 characters of [A-Za-z0-9_-].</param>
/// <param name="Lines">1–100 lines.</param>
public sealed record CreateOrderRequest(string? CustomerId, IReadOnlyList<CreateOrderLine?>? Lines);

/// <summary>One line of a new order.</summary>
/// <param name="Sku">1–64 printable characters.</param>
/// <param name="Quantity">An integer from 1 to 1,000.</param>
/// <param name="UnitPrice">From 0 to 1,000,000, with at most 2 decimals.</param>
public sealed record CreateOrderLine(string? Sku, int? Quantity, decimal? UnitPrice);

/// <summary>POST /orders/{id}/pay (the body is optional).</summary>
/// <param name="PaymentReference">Up to 128 characters.</param>
public sealed record PayOrderRequest(string? PaymentReference);

/// <summary>POST /orders/{id}/ship.</summary>
/// <param name="Carrier">1–64 printable characters.</param>
/// <param name="TrackingNumber">1–64 printable characters.</param>
public sealed record ShipOrderRequest(string? Carrier, string? TrackingNumber);

/// <summary>POST /orders/{id}/cancel (the body is optional).</summary>
/// <param name="Reason">Up to 500 characters.</param>
public sealed record CancelOrderRequest(string? Reason);

/// <summary>POST /orders/batch: the orders to fetch.</summary>
/// <param name="Ids">1–10,000 order ids; a repeated id is returned once, a missing one is left out.</param>
public sealed record OrderBatchRequest(IReadOnlyList<Guid>? Ids);

/// <summary>The body of /health/live and /health/ready when the service is healthy.</summary>
public sealed record HealthResponse(string Status);
