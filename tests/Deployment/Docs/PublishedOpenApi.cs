using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>The OpenAPI document the service publishes at /openapi/v1.json, read in process (on SQLite).</summary>
internal static class PublishedOpenApi
{
    public const string Route = "/openapi/v1.json";

    public static async Task<JsonObject> ReadAsync(CancellationToken cancellationToken)
    {
        using var database = new ScratchSqliteFile();
        await using var app = new WebApplicationFactory<Program>().WithWebHostBuilder(b =>
            b.UseEnvironment("Testing").UseSetting("Authorization:Mode", "None").UseSetting("OpenApi:Enabled", "true")
                .UseSetting("ConnectionStrings:Orders", database.ConnectionString));
        using var client = app.CreateClient();
        return (await client.GetFromJsonAsync<JsonObject>(Route, cancellationToken))!;
    }
}
