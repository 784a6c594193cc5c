using System.Data.Common;
using System.Globalization;
using System.Text.Json;
using Dapper;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.Logging;
using OrderService.Data.Orders;

namespace OrderService.Benchmarks.Allocations;

/// <summary>
/// "The plain Dapper + reflection JSON path": the same workflow endpoints written the obvious way, as the
/// yardstick of the allocation table. Dapper maps rows to classes by reflection, the JSON is the framework's
/// default reflection serializer, an order is read back with three queries (QueryMultiple), a batch with
/// Dapper's IN-list expansion. Same SQLite schema (the service's migrations) and the same HTTP contract, so
/// the harness drives both apps alike. Benchmark-only: never shipped, never a store.
/// </summary>
public static class ReferenceApi
{
    private const string OrderColumns = "id AS Id, customer_id AS CustomerId, status AS Status, CAST(total AS REAL) AS Total, version AS Version, created_at AS CreatedAt, updated_at AS UpdatedAt";

    public static async Task<WebApplication> StartAsync(string connectionString)
    {
        var builder = WebApplication.CreateBuilder(new WebApplicationOptions { EnvironmentName = "Testing" });
        builder.WebHost.UseTestServer();
        builder.Logging.ClearProviders();
        var app = builder.Build();
        SqliteConnection Open() => new(connectionString);

        app.MapPost("/orders", async (CreateOrderDto body) =>
        {
            var id = Guid.NewGuid();
            var now = Timestamps.Now(TimeProvider.System);
            var lines = body.Lines.Select(l => new LineDto(l.Sku, l.Quantity, l.UnitPrice)).ToList();
            var total = lines.Sum(l => l.Quantity * l.UnitPrice);
            await using var connection = Open();
            await connection.OpenAsync();
            await using var transaction = await connection.BeginTransactionAsync();
            var at = Timestamps.ToText(now);
            await connection.ExecuteAsync("INSERT INTO customers (id, created_at) VALUES (@CustomerId, @At) ON CONFLICT (id) DO NOTHING", new { body.CustomerId, At = at }, transaction);
            await connection.ExecuteAsync("INSERT INTO orders (id, customer_id, status, total, version, created_at, updated_at) VALUES (@Id, @CustomerId, 'Created', @Total, 1, @At, @At)",
                new { Id = id.ToString("D"), body.CustomerId, Total = total, At = at }, transaction);
            await connection.ExecuteAsync("INSERT INTO order_lines (order_id, line_no, sku, quantity, unit_price) VALUES (@OrderId, @LineNo, @Sku, @Quantity, @UnitPrice)",
                lines.Select((l, i) => new { OrderId = id.ToString("D"), LineNo = i + 1, l.Sku, l.Quantity, l.UnitPrice }), transaction);
            var data = new EventDataDto { Total = total };
            await connection.ExecuteAsync("INSERT INTO order_events (order_id, sequence, type, at, data) VALUES (@OrderId, 1, 'Created', @At, @Data)",
                new { OrderId = id.ToString("D"), At = at, Data = JsonSerializer.Serialize(data) }, transaction);
            await transaction.CommitAsync();
            var order = new OrderDto(id, body.CustomerId, "Created", total, 1, now, now, lines, [new EventDto(1, "Created", now, data)]);
            return Results.Created($"/orders/{id}", order);
        });

        app.MapGet("/orders/{id:guid}", async (Guid id) =>
        {
            await using var connection = Open();
            var order = await LoadAsync(connection, id.ToString("D"), null);
            return order is null ? Results.NotFound() : Results.Ok(order);
        });

        app.MapPost("/orders/{id:guid}/pay", (Guid id, PayDto body) =>
            TransitionAsync(Open(), id, "Created", "Paid", new EventDataDto { PaymentReference = body.PaymentReference }));
        app.MapPost("/orders/{id:guid}/ship", (Guid id, ShipDto body) =>
            TransitionAsync(Open(), id, "Paid", "Shipped", new EventDataDto { Carrier = body.Carrier, TrackingNumber = body.TrackingNumber }));
        app.MapPost("/orders/{id:guid}/complete", (Guid id) => TransitionAsync(Open(), id, "Shipped", "Completed", new EventDataDto()));

        app.MapPost("/orders/batch", async (BatchDto body) =>
        {
            await using var connection = Open();
            var ids = body.Ids.Select(i => i.ToString("D")).Distinct().ToArray();
            var orders = await connection.QueryAsync<OrderRow>($"SELECT {OrderColumns} FROM orders WHERE id IN @Ids ORDER BY id", new { Ids = ids });
            return Results.Ok(await WithChildrenAsync(connection, orders.ToList()));
        });

        app.MapGet("/customers/{customerId}/orders", async (string customerId, int? limit) =>
        {
            await using var connection = Open();
            var orders = await connection.QueryAsync<OrderRow>(
                $"SELECT {OrderColumns} FROM orders WHERE customer_id = @CustomerId ORDER BY created_at DESC, id DESC LIMIT @Limit",
                new { CustomerId = customerId, Limit = limit ?? 100 });
            return Results.Ok(await WithChildrenAsync(connection, orders.ToList()));
        });

        await app.StartAsync();
        return app;
    }

    private static async Task<IResult> TransitionAsync(SqliteConnection connection, Guid id, string from, string to, EventDataDto data)
    {
        await using (connection)
        {
            await connection.OpenAsync();
            await using var transaction = await connection.BeginTransactionAsync();
            var key = id.ToString("D");
            var current = await connection.QuerySingleOrDefaultAsync<OrderRow>($"SELECT {OrderColumns} FROM orders WHERE id = @Id", new { Id = key }, transaction);
            if (current is null)
            {
                return Results.NotFound();
            }

            if (current.Status != from)
            {
                return Results.Conflict();
            }

            var at = Timestamps.ToText(Timestamps.Now(TimeProvider.System));
            await connection.ExecuteAsync("UPDATE orders SET status = @To, version = version + 1, updated_at = @At WHERE id = @Id AND version = @Version",
                new { To = to, At = at, Id = key, current.Version }, transaction);
            await connection.ExecuteAsync("INSERT INTO order_events (order_id, sequence, type, at, data) VALUES (@Id, @Sequence, @Type, @At, @Data)",
                new { Id = key, Sequence = current.Version + 1, Type = to, At = at, Data = JsonSerializer.Serialize(data) }, transaction);
            var order = await LoadAsync(connection, key, transaction);
            await transaction.CommitAsync();
            return Results.Ok(order);
        }
    }

    private static async Task<OrderDto?> LoadAsync(DbConnection connection, string id, DbTransaction? transaction)
    {
        using var results = await connection.QueryMultipleAsync(
            $"SELECT {OrderColumns} FROM orders WHERE id = @Id; " +
            "SELECT order_id AS OrderId, sku AS Sku, quantity AS Quantity, CAST(unit_price AS REAL) AS UnitPrice FROM order_lines WHERE order_id = @Id ORDER BY line_no; " +
            "SELECT order_id AS OrderId, sequence AS Sequence, type AS Type, at AS At, data AS Data FROM order_events WHERE order_id = @Id ORDER BY sequence",
            new { Id = id }, transaction);
        var order = await results.ReadSingleOrDefaultAsync<OrderRow>();
        var lines = (await results.ReadAsync<LineRow>()).ToList();
        var events = (await results.ReadAsync<EventRow>()).ToList();
        return order is null ? null : ToDto(order, lines, events);
    }

    private static async Task<List<OrderDto>> WithChildrenAsync(DbConnection connection, List<OrderRow> orders)
    {
        var ids = orders.Select(o => o.Id).ToArray();
        var lines = (await connection.QueryAsync<LineRow>(
            "SELECT order_id AS OrderId, sku AS Sku, quantity AS Quantity, CAST(unit_price AS REAL) AS UnitPrice FROM order_lines WHERE order_id IN @Ids ORDER BY order_id, line_no", new { Ids = ids }))
            .ToLookup(l => l.OrderId);
        var events = (await connection.QueryAsync<EventRow>(
            "SELECT order_id AS OrderId, sequence AS Sequence, type AS Type, at AS At, data AS Data FROM order_events WHERE order_id IN @Ids ORDER BY order_id, sequence", new { Ids = ids }))
            .ToLookup(e => e.OrderId);
        return orders.Select(o => ToDto(o, [.. lines[o.Id]], [.. events[o.Id]])).ToList();
    }

    private static OrderDto ToDto(OrderRow order, List<LineRow> lines, List<EventRow> events) => new(
        Guid.Parse(order.Id), order.CustomerId, order.Status, order.Total, order.Version, Parse(order.CreatedAt), Parse(order.UpdatedAt),
        lines.Select(l => new LineDto(l.Sku, l.Quantity, l.UnitPrice)).ToList(),
        events.Select(e => new EventDto(e.Sequence, e.Type, Parse(e.At), JsonSerializer.Deserialize<EventDataDto>(e.Data)!)).ToList());

    private static DateTimeOffset Parse(string text) => DateTimeOffset.Parse(text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal);

    // Rows as Dapper maps them (by reflection, by column alias). SQLite hands NUMERIC back as integer or real
    // row by row, so the money columns are read as REAL (CAST) and Dapper converts them to decimal.
    private sealed class OrderRow
    {
        public string Id { get; set; } = "";
        public string CustomerId { get; set; } = "";
        public string Status { get; set; } = "";
        public decimal Total { get; set; }
        public int Version { get; set; }
        public string CreatedAt { get; set; } = "";
        public string UpdatedAt { get; set; } = "";
    }

    private sealed class LineRow
    {
        public string OrderId { get; set; } = "";
        public string Sku { get; set; } = "";
        public int Quantity { get; set; }
        public decimal UnitPrice { get; set; }
    }

    private sealed class EventRow
    {
        public string OrderId { get; set; } = "";
        public int Sequence { get; set; }
        public string Type { get; set; } = "";
        public string At { get; set; } = "";
        public string Data { get; set; } = "";
    }
}

// The wire shapes, serialized by the default (reflection) System.Text.Json resolver with web defaults.
public sealed record CreateOrderDto(string CustomerId, List<LineDto> Lines);

public sealed record LineDto(string Sku, int Quantity, decimal UnitPrice);

public sealed record PayDto(string? PaymentReference);

public sealed record ShipDto(string Carrier, string TrackingNumber);

public sealed record BatchDto(List<Guid> Ids);

public sealed record EventDto(int Sequence, string Type, DateTimeOffset At, EventDataDto Data);

public sealed record OrderDto(Guid Id, string CustomerId, string Status, decimal Total, int Version, DateTimeOffset CreatedAt, DateTimeOffset UpdatedAt, List<LineDto> Lines, List<EventDto> Events);

public sealed class EventDataDto
{
    [System.Text.Json.Serialization.JsonIgnore(Condition = System.Text.Json.Serialization.JsonIgnoreCondition.WhenWritingNull)]
    public string? PaymentReference { get; set; }

    [System.Text.Json.Serialization.JsonIgnore(Condition = System.Text.Json.Serialization.JsonIgnoreCondition.WhenWritingNull)]
    public string? Carrier { get; set; }

    [System.Text.Json.Serialization.JsonIgnore(Condition = System.Text.Json.Serialization.JsonIgnoreCondition.WhenWritingNull)]
    public string? TrackingNumber { get; set; }

    [System.Text.Json.Serialization.JsonIgnore(Condition = System.Text.Json.Serialization.JsonIgnoreCondition.WhenWritingNull)]
    public decimal? Total { get; set; }
}
