using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Microsoft.Data.Sqlite;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using Xunit;

namespace OrderService.Integration.Tests.Api;

/// <summary>
/// The service on a throwaway SQLite file, for the tests of the HTTP layer itself (problems, headers,
/// OpenAPI, the payment probe, recovery). The store-by-store contract lives in the conformance suite.
/// </summary>
public sealed class ApiHost : IAsyncLifetime
{
    private readonly string _directory = Directory.CreateTempSubdirectory("orders-api-").FullName;
    private OrderServiceFactory? _default;

    public HttpClient Client { get; private set; } = null!;

    public static CancellationToken Ct => TestContext.Current.CancellationToken;

    public static JsonObject ValidOrder(string customerId) => new()
    {
        ["customerId"] = customerId,
        ["lines"] = new JsonArray(new JsonObject { ["sku"] = "SKU-1", ["quantity"] = 2, ["unitPrice"] = 19.99m }),
    };

    public static string NewCustomer() => $"api-{Guid.NewGuid():N}"[..24];

    /// <summary>A host of its own (the caller disposes it), with <paramref name="overrides"/> on top of a fresh SQLite file.</summary>
    public OrderServiceFactory Create(params (string Key, string? Value)[] overrides)
    {
        var settings = new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase)
        {
            ["Store:Provider"] = "Sqlite",
            ["ConnectionStrings:Orders"] = $"Data Source={Path.Combine(_directory, Guid.NewGuid().ToString("N") + ".db")}",
        };
        foreach (var (key, value) in overrides)
        {
            settings[key] = value;
        }

        return new OrderServiceFactory(settings);
    }

    /// <summary>A path inside the fixture's directory, for tests that shape the store's file themselves.</summary>
    public string PathFor(string name) => Path.Combine(_directory, name);

    public static async Task<JsonObject> CreateOrderAsync(HttpClient client, string customerId)
    {
        using var response = await client.PostAsJsonAsync("/orders", ValidOrder(customerId), Ct);
        response.EnsureSuccessStatusCode();
        return (await response.Content.ReadFromJsonAsync<JsonObject>(Ct))!;
    }

    public ValueTask InitializeAsync()
    {
        _default = Create();
        Client = _default.CreateClient();
        return ValueTask.CompletedTask;
    }

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        if (_default is not null)
        {
            await _default.DisposeAsync();
        }

        SqliteConnection.ClearAllPools();
        try
        {
            Directory.Delete(_directory, recursive: true);
        }
        catch (IOException)
        {
            // A file a lingering connection still holds; the OS cleans the temp directory.
        }
    }
}
