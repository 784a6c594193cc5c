// POST /orders -> 201 with a constant body: the template's host (CreateBuilder, as the service) and nothing else.
var app = WebApplication.CreateBuilder(args).Build();
app.MapPost("/orders", () => Results.Text("""{"id":"00000000-0000-0000-0000-000000000001"}""", "application/json", statusCode: 201));
app.Run();
