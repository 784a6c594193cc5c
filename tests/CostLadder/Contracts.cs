namespace OrderService.CostLadder;

/// <summary>The request bodies the load driver sends (docs/api.md), as plain records.</summary>
public sealed record CreateOrder(string? CustomerId, IReadOnlyList<OrderLine>? Lines);

public sealed record OrderLine(string? Sku, int Quantity, decimal UnitPrice);

public sealed record Payment(string? PaymentReference);

public sealed record Shipment(string? Carrier, string? TrackingNumber);

/// <summary>The order as the rungs answer it: the order row, without lines and events (the driver reads id,
/// status and version).</summary>
public sealed record OrderReply(Guid Id, string CustomerId, string Status, decimal Total, int Version);

/// <summary>One step after create: the status it needs, the status it sets, and its event's JSON.</summary>
public sealed record Transition(string From, string To, string EventData);
