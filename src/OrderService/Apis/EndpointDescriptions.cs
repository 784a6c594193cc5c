namespace OrderService.Apis;

/// <summary>The longer prose of the OpenAPI document: a description per tag and per operation.</summary>
public static class EndpointDescriptions
{
    public static readonly IReadOnlyDictionary<string, string> Tags = new Dictionary<string,
        string>(StringComparer.Ordinal)
    {
        ["Orders"] = "Create an order, read it, move it through its workflow (pay, ship, complete, or cancel), and " +
            "read many by id.",
        ["Customers"] = "A customer's orders, newest first.",
        ["Health"] = "Probes for an orchestrator: liveness (the process) and readiness (the store).",
    };

    public static readonly IReadOnlyDictionary<string, string> Operations = new Dictionary<string,
        string>(StringComparer.Ordinal)
    {
        ["CreateOrder"] =
            "Creates an order in status Created at version 1, with its first event. The answer carries Location and " +
            "ETag. " +
            "With an Idempotency-Key, a retry with the same body returns the first order (201, `Idempotent-Replayed: " +
            "true`) and creates nothing; " +
            "the same key with another body is 422.",
        ["GetOrder"] = "The order with its lines, total, status, version and every event, oldest first. ETag is the " +
            "version, to send back in If-Match.",
        ["PayOrder"] =
            "Moves a Created order to Paid and appends a Paid event; the body and its paymentReference are optional. " +
            "With If-Match the step applies only at that version (409 stale-version otherwise); from another status " +
            "it is 409 illegal-transition.",
        ["ShipOrder"] = "Moves a Paid order to Shipped with its carrier and tracking number, and appends a Shipped " +
            "event. If-Match works as for pay.",
        ["CompleteOrder"] = "Moves a Shipped order to Completed and appends a Completed event. It takes no body. " +
            "If-Match works as for pay.",
        ["CancelOrder"] = "Cancels an order that is Created or Paid, with an optional reason, and appends a " +
            "Cancelled event. If-Match works as for pay.",
        ["GetOrdersBatch"] =
            "Reads many orders by id in one call, as a JSON array streamed while the store returns rows. " +
            "A repeated id is returned once and an unknown id is left out, so the array can be shorter than the list " +
            "of ids.",
        ["ListCustomerOrders"] = "A customer's orders, newest first, as a JSON array streamed while the store " +
            "returns rows; an unknown customer has none.",
        ["Live"] = "200 while the process answers. It checks no dependency, so a store outage never restarts the " +
            "service.",
        ["Ready"] = "200 when the store answers within the attempt timeout; 503 otherwise, which takes the instance " +
            "out of rotation until it recovers.",
    };
}
