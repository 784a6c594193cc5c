using System.Text.Json;
using Microsoft.AspNetCore.Mvc;

namespace OrderService.CostLadder;

/// <summary>
/// Rung b: rung a plus the request contract: the field limits as 400 ValidationProblem, 404 and 409 as
/// ProblemDetails naming the order's current status and version, problem details for every other error, and
/// source-generated JSON. Still one round trip per request that applies (a step that does not apply reads the order).
/// </summary>
public static class ContractRung
{
    public static void AddServices(IServiceCollection services)
    {
        services.AddProblemDetails();
        services.ConfigureHttpJsonOptions(json => json.SerializerOptions.TypeInfoResolverChain.Insert(0, LadderJson.Default));
    }

    public static void Map(WebApplication app, IOrderSql orders)
    {
        app.UseExceptionHandler();
        app.UseStatusCodePages();
        app.MapPost("/orders", async (CreateOrder body, CancellationToken ct) =>
        {
            if (RequestRules.Check(body) is { Count: > 0 } errors)
            {
                return Results.ValidationProblem(errors);
            }

            var order = await orders.CreateAsync(body.CustomerId!, body.Lines!, ct);
            return Results.Created($"/orders/{order.Id}", order);
        });
        app.MapPost("/orders/{id:guid}/pay", (Guid id, Payment body, [FromHeader(Name = "If-Match")] string? ifMatch, CancellationToken ct) =>
            MoveAsync(orders, id, RequestRules.Check(body), new Transition("Created", "Paid", JsonSerializer.Serialize(body, LadderJson.Default.Payment)), ifMatch, ct));
        app.MapPost("/orders/{id:guid}/ship", (Guid id, Shipment body, [FromHeader(Name = "If-Match")] string? ifMatch, CancellationToken ct) =>
            MoveAsync(orders, id, RequestRules.Check(body), new Transition("Paid", "Shipped", JsonSerializer.Serialize(body, LadderJson.Default.Shipment)), ifMatch, ct));
        app.MapPost("/orders/{id:guid}/complete", (Guid id, [FromHeader(Name = "If-Match")] string? ifMatch, CancellationToken ct) =>
            MoveAsync(orders, id, [], new Transition("Shipped", "Completed", "{}"), ifMatch, ct));
    }

    private static async Task<IResult> MoveAsync(IOrderSql orders, Guid id, Dictionary<string, string[]> errors, Transition step, string? ifMatch, CancellationToken ct)
    {
        if (!RequestRules.TryReadVersion(ifMatch, out var version, out var headerErrors) | errors.Count > 0)
        {
            return Results.ValidationProblem(errors.Concat(headerErrors).ToDictionary());
        }

        if (await orders.MoveAsync(id, step, version, ct) is { } moved)
        {
            return Results.Ok(moved);
        }

        if (await orders.FindAsync(id, ct) is not { } current)
        {
            return Results.Problem(statusCode: StatusCodes.Status404NotFound, title: "No such order.");
        }

        var stale = current.Status == step.From;
        return Results.Problem(
            statusCode: StatusCodes.Status409Conflict,
            type: stale ? "stale-version" : "illegal-transition",
            title: stale ? "If-Match is stale." : $"An order in {current.Status} cannot become {step.To}.",
            extensions: new Dictionary<string, object?> { ["currentStatus"] = current.Status, ["currentVersion"] = current.Version });
    }
}
