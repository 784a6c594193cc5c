extern alias service;

using Microsoft.AspNetCore.Mvc;
using OrderService.Data;
using OrderService.Data.Orders;
using service::OrderService.Apis;
using service::OrderService.Validation;
using DomainLine = OrderService.Data.Orders.OrderLine;

namespace OrderService.CostLadder;

/// <summary>
/// Rungs c to f: rung b's routes, request contract and problems over the store port instead of the ladder's SQL. The
/// events are stamped and the order built as the service's handlers do (<see cref="Transitions"/>); the reply is still
/// rung b's order row. With <c>keysAndETags</c> (rung f) the two headers are read by the service's own rules, the
/// Idempotency-Key goes to the store with the request's fingerprint (stored with the step, replayed after), and every
/// reply carries the ETag.
/// </summary>
public sealed class PortRung(IOrderStore store, TimeProvider clock, bool keysAndETags)
{
    private const string IdempotencyKeyHeader = "Idempotency-Key";
    private const string ReplayedHeader = "Idempotent-Replayed";

    private static readonly OrderEventData NoData = new();

    public void Map(WebApplication app)
    {
        app.UseExceptionHandler();
        app.UseStatusCodePages();
        app.MapPost("/orders", (CreateOrder body, HttpResponse response, CancellationToken ct) => CreateAsync(body, response, ct));
        app.MapPost("/orders/{id:guid}/pay", (Guid id, Payment body, [FromHeader(Name = "If-Match")] string? ifMatch, HttpResponse response, CancellationToken ct) =>
            MoveAsync(id, OrderAction.Pay, RequestRules.Check(body), body.PaymentReference is { } reference ? new OrderEventData(PaymentReference: reference) : NoData, ifMatch, response, ct));
        app.MapPost("/orders/{id:guid}/ship", (Guid id, Shipment body, [FromHeader(Name = "If-Match")] string? ifMatch, HttpResponse response, CancellationToken ct) =>
            MoveAsync(id, OrderAction.Ship, RequestRules.Check(body), new OrderEventData(Carrier: body.Carrier, TrackingNumber: body.TrackingNumber), ifMatch, response, ct));
        app.MapPost("/orders/{id:guid}/complete", (Guid id, [FromHeader(Name = "If-Match")] string? ifMatch, HttpResponse response, CancellationToken ct) =>
            MoveAsync(id, OrderAction.Complete, [], NoData, ifMatch, response, ct));
    }

    private async Task<IResult> CreateAsync(CreateOrder body, HttpResponse response, CancellationToken ct)
    {
        if (RequestRules.Check(body) is { Count: > 0 } errors)
        {
            return Results.ValidationProblem(errors);
        }

        var headers = default(ValidationErrors);
        var key = keysAndETags ? OrderRequestRules.IdempotencyKey(Header(response, IdempotencyKeyHeader), ref headers) : null;
        if (headers.Any)
        {
            return headers.ToProblem();
        }

        var now = Timestamps.Now(clock);
        var lines = body.Lines!.Select(line => new DomainLine(line.Sku!, line.Quantity, line.UnitPrice)).ToArray();
        var order = Transitions.Create(Guid.CreateVersion7(now), body.CustomerId!, lines, now);
        var hash = key is null ? string.Empty : RequestFingerprint.Of(order.CustomerId, order.Lines);
        var result = await store.CreateAsync(new NewOrder(order, key, hash), ct);
        if (result.Outcome == CreateOutcome.KeyReusedWithDifferentRequest)
        {
            return KeyReused();
        }

        var stored = result.Order!;
        Mark(response, stored, result.Outcome == CreateOutcome.Replayed);
        return Results.Created($"/orders/{stored.Id}", Reply(stored));
    }

    private async Task<IResult> MoveAsync(
        Guid id, OrderAction action, Dictionary<string, string[]> errors, OrderEventData data, string? ifMatch, HttpResponse response, CancellationToken ct)
    {
        var headers = default(ValidationErrors);
        int? version;
        string? key = null;
        if (keysAndETags)
        {
            version = OrderRequestRules.IfMatch(ifMatch ?? Header(response, "If-Match"), ref headers);
            key = OrderRequestRules.IdempotencyKey(Header(response, IdempotencyKeyHeader), ref headers);
        }
        else if (!RequestRules.TryReadVersion(ifMatch, out version, out var headerErrors))
        {
            errors = errors.Concat(headerErrors).ToDictionary();
        }

        if (errors.Count > 0)
        {
            return Results.ValidationProblem(errors);
        }

        if (headers.Any)
        {
            return headers.ToProblem();
        }

        var command = new TransitionCommand(id, action, version, Timestamps.Now(clock), data)
        {
            IdempotencyKey = key,
            RequestHash = key is null ? string.Empty : RequestFingerprint.OfTransition(id, action, data),
        };
        var result = await store.TransitionAsync(command, ct);
        switch (result.Outcome)
        {
            case TransitionOutcome.Applied or TransitionOutcome.Replayed:
                Mark(response, result.Order!, result.Outcome == TransitionOutcome.Replayed);
                return Results.Ok(Reply(result.Order!));
            case TransitionOutcome.NotFound:
                return Results.Problem(statusCode: StatusCodes.Status404NotFound, title: "No such order.");
            case TransitionOutcome.KeyReusedWithDifferentRequest:
                return KeyReused();
            default:
                var stale = result.Outcome == TransitionOutcome.StaleVersion;
                return Results.Problem(
                    statusCode: StatusCodes.Status409Conflict,
                    type: stale ? "stale-version" : "illegal-transition",
                    title: stale ? "If-Match is stale." : $"An order in {result.CurrentStatus} cannot become {Transitions.Target(action)}.",
                    extensions: new Dictionary<string, object?> { ["currentStatus"] = result.CurrentStatus?.ToString(), ["currentVersion"] = result.CurrentVersion });
        }
    }

    /// <summary>Rung f's marks on a success: the ETag, and whether the answer is a replay.</summary>
    private void Mark(HttpResponse response, Order order, bool replayed)
    {
        if (!keysAndETags)
        {
            return;
        }

        response.Headers.ETag = ETags.For(order.Version);
        if (replayed)
        {
            response.Headers[ReplayedHeader] = "true";
        }
    }

    private static OrderReply Reply(Order order) => new(order.Id, order.CustomerId, order.Status.ToString(), order.Total, order.Version);

    private static IResult KeyReused() => Results.Problem(
        statusCode: StatusCodes.Status422UnprocessableEntity, title: "This Idempotency-Key was used with another request.");

    /// <summary>A header as the service reads it: sent empty (which binds as null), it is a malformed value rather than an absent one.</summary>
    private static string? Header(HttpResponse response, string name) =>
        response.HttpContext.Request.Headers.TryGetValue(name, out var value) ? value.ToString() : null;
}
