using System.Text.Json;
using Microsoft.AspNetCore.Mvc;

namespace OrderService.CostLadder;

/// <summary>
/// Rung a: what ASP.NET Core and Npgsql cost for the workflow. Bodies bound and written by reflection JSON, If-Match
/// read as the version, one round trip per request, and no validation: a step that does not apply is a bare 409.
/// </summary>
public static class BareRung
{
    public static void Map(IEndpointRouteBuilder app, IOrderSql orders)
    {
        app.MapPost("/orders", async (CreateOrder body, CancellationToken ct) =>
        {
            var order = await orders.CreateAsync(body.CustomerId!, body.Lines!, ct);
            return Results.Created($"/orders/{order.Id}", order);
        });
        app.MapPost("/orders/{id:guid}/pay", (Guid id, Payment body, [FromHeader(Name = "If-Match")] string? ifMatch, CancellationToken ct) =>
            MoveAsync(orders, id, new Transition("Created", "Paid", JsonSerializer.Serialize(body)), ifMatch, ct));
        app.MapPost("/orders/{id:guid}/ship", (Guid id, Shipment body, [FromHeader(Name = "If-Match")] string? ifMatch, CancellationToken ct) =>
            MoveAsync(orders, id, new Transition("Paid", "Shipped", JsonSerializer.Serialize(body)), ifMatch, ct));
        app.MapPost("/orders/{id:guid}/complete", (Guid id, [FromHeader(Name = "If-Match")] string? ifMatch, CancellationToken ct) =>
            MoveAsync(orders, id, new Transition("Shipped", "Completed", "{}"), ifMatch, ct));
    }

    private static async Task<IResult> MoveAsync(IOrderSql orders, Guid id, Transition step, string? ifMatch, CancellationToken ct)
    {
        int? version = ifMatch is null ? null : int.Parse(ifMatch.AsSpan().Trim('"'), provider: null);
        return await orders.MoveAsync(id, step, version, ct) is { } order ? Results.Ok(order) : Results.Conflict();
    }
}
