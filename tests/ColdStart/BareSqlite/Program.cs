// POST /orders -> one INSERT of the body into SQLite -> 201: what ASP.NET Core and SQLite cost a cold start, and no more.
using Microsoft.Data.Sqlite;

var app = WebApplication.CreateBuilder(args).Build();
var connectionString = app.Configuration.GetConnectionString("Orders") ?? "Data Source=orders.db";
using (var connection = new SqliteConnection(connectionString))
{
    connection.Open();
    using var create = connection.CreateCommand();
    create.CommandText = "PRAGMA journal_mode=WAL; CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, body TEXT NOT NULL);";
    create.ExecuteNonQuery();
}

app.MapPost("/orders", async (HttpRequest request) =>
{
    using var reader = new StreamReader(request.Body);
    var body = await reader.ReadToEndAsync();
    var id = Guid.CreateVersion7().ToString();
    await using var connection = new SqliteConnection(connectionString);
    await connection.OpenAsync();
    await using var insert = connection.CreateCommand();
    insert.CommandText = "PRAGMA synchronous=FULL; INSERT INTO orders (id, body) VALUES ($id, $body);";
    insert.Parameters.AddWithValue("$id", id);
    insert.Parameters.AddWithValue("$body", body);
    await insert.ExecuteNonQueryAsync();
    return Results.Text($$"""{"id":"{{id}}"}""", "application/json", statusCode: 201);
});
app.Run();
