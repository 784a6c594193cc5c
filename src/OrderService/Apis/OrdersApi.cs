using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;
using OrderService.Authorization;
using OrderService.Contracts;
using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Problems;
using OrderService.Validation;
using static Microsoft.AspNetCore.Http.StatusCodes;

namespace OrderService.Apis;

/// <summary>/orders: create, read, the four workflow steps, and the batch read. Handlers are static and return typed
/// results, so OpenAPI lists every outcome.</summary>
public static class OrdersApi
{
    private const string IdempotencyKeyHeader = "Idempotency-Key";
    private const string IfMatchHeader = "If-Match";
    private const string ReplayedHeader = "Idempotent-Replayed";

    private static readonly OrderEventData NoData = new();

    public static RouteGroupBuilder MapOrdersApi(this IEndpointRouteBuilder app)
    {
        // Rules for every endpoint: a bad id or body is a 400 problem; any store call may answer 503 with Retry-After.
        var orders = app.MapGroup("/orders")
            .RequireOrderAccess()
            .WithTags("Orders")
            .ProducesValidationProblem()
            .ProducesProblem(Status503ServiceUnavailable);

        orders.MapPost("", CreateOrderAsync).WithName("CreateOrder")
            .WithSummary("Create an order (201). Idempotency-Key makes a retry return the first order.")
            .WithDescription("Creates an order in status Created at version 1, with its first event. The answer " +
                "carries Location and ETag. With an Idempotency-Key, a retry with the same body returns the first " +
                "order (201, `Idempotent-Replayed: true`) and creates nothing; the same key with another body is 422.")
            .AcceptsJsonOnly().ProducesProblem(Status422UnprocessableEntity);
        // Get and complete take no body: the validation filter would only check the services and the response.
        orders.MapGet("/{id}", GetOrderAsync).WithName("GetOrder").WithSummary("Read an order with its events.")
            .WithDescription("The order with its lines, total, status, version and every event, oldest first. ETag " +
                "is the version, to send back in If-Match.")
            .ProducesProblem(Status404NotFound).DisableValidation();
        orders.MapPost("/{id}/pay", PayOrderAsync).WithName("PayOrder").WithSummary("Created -> Paid.")
            .WithDescription("Moves a Created order to Paid and appends a Paid event; the body and its " +
                "paymentReference are optional. With If-Match the step applies only at that version (409 " +
                "stale-version otherwise); from another status it is 409 illegal-transition.")
            .AcceptsJsonOnly().Transition();
        orders.MapPost("/{id}/ship", ShipOrderAsync).WithName("ShipOrder").WithSummary("Paid -> Shipped.")
            .WithDescription("Moves a Paid order to Shipped with its carrier and tracking number, and appends a " +
                "Shipped event. If-Match works as for pay.")
            .AcceptsJsonOnly().Transition().Fulfils();
        orders.MapPost("/{id}/complete", CompleteOrderAsync).WithName("CompleteOrder")
            .WithSummary("Shipped -> Completed.")
            .WithDescription("Moves a Shipped order to Completed and appends a Completed event. It takes no body. " +
                "If-Match works as for pay.")
            .Transition().Fulfils().DisableValidation();
        orders.MapPost("/{id}/cancel", CancelOrderAsync).WithName("CancelOrder")
            .WithSummary("Created or Paid -> Cancelled.")
            .WithDescription("Cancels an order that is Created or Paid, with an optional reason, and appends a " +
                "Cancelled event. If-Match works as for pay.")
            .AcceptsJsonOnly().Transition();

        orders.MapPost("/batch", GetOrdersBatchAsync).WithName("GetOrdersBatch")
            .WithSummary("The orders among 1–1,000 ids, streamed; unknown ids are left out.")
            .WithDescription("Reads many orders by id in one call, as a JSON array streamed while the store returns " +
                "rows. A repeated id is returned once and an unknown id is left out, so the array can be shorter " +
                "than the list of ids.")
            .AcceptsJsonOnly().ReadsOnly();
        return orders;
    }

    /// <summary>A body is JSON or nothing: the other media types are 415, and a body over 1 MiB is 413.</summary>
    private static RouteHandlerBuilder AcceptsJsonOnly(this RouteHandlerBuilder endpoint) => endpoint
        .ProducesProblem(Status413PayloadTooLarge)
        .ProducesProblem(Status415UnsupportedMediaType);

    /// <summary>A step: no such order (404), a status that forbids it or a stale If-Match (409), a reused key
    /// (422).</summary>
    private static RouteHandlerBuilder Transition(this RouteHandlerBuilder endpoint) => endpoint
        .ProducesProblem(Status404NotFound)
        .ProducesProblem(Status409Conflict)
        .ProducesProblem(Status422UnprocessableEntity);

    internal static async Task<Results<Created<Order>, ValidationProblem, ProblemHttpResult>> CreateOrderAsync(
        CreateOrderRequest request,
        [FromHeader(Name = IdempotencyKeyHeader)] string? idempotencyKey,
        [FromServices] IOrderStore store,
        [FromServices] TimeProvider clock,
        HttpResponse response,
        CancellationToken cancellationToken)
    {
        var errors = default(ValidationErrors);
        var lines = OrderRequestRules.Lines(request.Lines!, ref errors);
        var key = Key(idempotencyKey, response, ref errors);
        if (errors.Any)
        {
            return errors.ToProblem();
        }

        var now = Timestamps.Now(clock);
        var order = Transitions.Create(Guid.CreateVersion7(now), request.CustomerId!, lines!, now);

        // The hash only matters with a key: it tells a retry from a different request under the same key.
        var hash = key is null ? string.Empty : RequestFingerprint.Of(order.CustomerId, order.Lines);
        var result = await store.CreateAsync(new NewOrder(order, key, hash), cancellationToken);
        if (result.Outcome == CreateOutcome.KeyReusedWithDifferentRequest)
        {
            return ApiProblems.IdempotencyKeyReused();
        }

        var stored = result.Order!;
        if (result.Outcome == CreateOutcome.Replayed)
        {
            response.Headers[ReplayedHeader] = "true";
        }

        response.Headers.ETag = ETags.For(stored.Version);
        return TypedResults.Created($"/orders/{stored.Id}", stored);
    }

    internal static async Task<Results<Ok<Order>, ProblemHttpResult>> GetOrderAsync(
        Guid id,
        [FromServices] IOrderStore store,
        HttpResponse response,
        CancellationToken cancellationToken)
    {
        var order = await store.GetAsync(id, cancellationToken);
        return order is null ? ApiProblems.OrderNotFound(id) : ETags.Ok(order, response);
    }

    internal static Task<Results<Ok<Order>, ValidationProblem, ProblemHttpResult>> PayOrderAsync(
        Guid id,
        PayOrderRequest? request,
        [AsParameters] Step step) =>
        StepAsync(id, OrderAction.Pay, request?.PaymentReference is { } reference
                ? new OrderEventData(PaymentReference: reference) : NoData,
            step);

    internal static Task<Results<Ok<Order>, ValidationProblem, ProblemHttpResult>> ShipOrderAsync(
        Guid id,
        ShipOrderRequest request,
        [AsParameters] Step step) =>
        StepAsync(id, OrderAction.Ship, new OrderEventData(Carrier: request.Carrier,
                TrackingNumber: request.TrackingNumber),
            step);

    internal static Task<Results<Ok<Order>, ValidationProblem, ProblemHttpResult>> CompleteOrderAsync(
        Guid id,
        [AsParameters] Step step) =>
        StepAsync(id, OrderAction.Complete, NoData, step);

    internal static Task<Results<Ok<Order>, ValidationProblem, ProblemHttpResult>> CancelOrderAsync(
        Guid id,
        CancelOrderRequest? request,
        [AsParameters] Step step) =>
        StepAsync(id, OrderAction.Cancel, request?.Reason is { } reason ? new OrderEventData(Reason: reason) : NoData,
            step);

    internal static async Task<OrderStream> GetOrdersBatchAsync(
        OrderBatchRequest request,
        [FromServices] IOrderStore store,
        CancellationToken cancellationToken)
    {
        // The store returns a repeated id once.
        return await OrderStream.OpenAsync(store.GetManyAsync(request.Ids!, cancellationToken), cancellationToken);
    }

    /// <summary>A header sent with an empty value binds as null, yet it is a malformed value, not an absent
    /// one.</summary>
    private static string? Present(string? bound, HttpResponse response, string header) =>
        bound ?? (response.HttpContext.Request.Headers.ContainsKey(header) ? string.Empty : null);

    private static string? Key(string? header, HttpResponse response, ref ValidationErrors errors) =>
        CallerKeys.Scoped(response.HttpContext.User,
            OrderRequestRules.IdempotencyKey(Present(header, response, IdempotencyKeyHeader), ref errors));

    /// <summary>What every workflow step binds besides its id and body.</summary>
    internal readonly record struct Step(
        [property: FromHeader(Name = IfMatchHeader)] string? IfMatch,
        [property: FromHeader(Name = IdempotencyKeyHeader)] string? IdempotencyKey,
        [property: FromServices] IOrderStore Store,
        [property: FromServices] TimeProvider Clock,
        HttpResponse Response,
        CancellationToken CancellationToken);

    /// <summary>A workflow step: If-Match and Idempotency-Key are checked together, so one 400 names both.</summary>
    private static async Task<Results<Ok<Order>, ValidationProblem, ProblemHttpResult>> StepAsync(
        Guid id,
        OrderAction action,
        OrderEventData data,
        Step step)
    {
        var errors = default(ValidationErrors);
        var response = step.Response;
        var expected = OrderRequestRules.IfMatch(Present(step.IfMatch, response, IfMatchHeader), ref errors);
        var key = Key(step.IdempotencyKey, response, ref errors);
        if (errors.Any)
        {
            return errors.ToProblem();
        }

        // The event is stamped here, so every store records the same instant.
        var result = await step.Store.TransitionAsync(
            new TransitionCommand(id, action, expected, Timestamps.Now(step.Clock), data)
            {
                IdempotencyKey = key,
                RequestHash = key is null ? string.Empty : RequestFingerprint.OfTransition(id, action, data),
            },
            step.CancellationToken);
        return result.Outcome switch
        {
            TransitionOutcome.Applied or TransitionOutcome.Replayed => Succeeded(result, response),
            TransitionOutcome.NotFound => ApiProblems.OrderNotFound(id),
            TransitionOutcome.KeyReusedWithDifferentRequest => ApiProblems.IdempotencyKeyReused(),
            _ => ApiProblems.Conflict(result, action, expected),
        };
    }

    /// <summary>200 with the order; a replay answers exactly like the first call (the order as that step left it, its
    /// ETag), marked so a client can tell.</summary>
    private static Ok<Order> Succeeded(TransitionResult result, HttpResponse response)
    {
        if (result.Outcome == TransitionOutcome.Replayed)
        {
            response.Headers[ReplayedHeader] = "true";
        }

        return ETags.Ok(result.Order!, response);
    }
}
