using System.Globalization;
using System.Net;
using System.Text;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Data.Sqlite;

namespace OrderService.Benchmarks.Allocations;

/// <summary>
/// Allocated bytes per request, every workflow endpoint, the service against <see cref="ReferenceApi"/>
/// (plain Dapper + reflection JSON), both in this process on SQLite behind TestServer, driven by the same
/// client code. A figure is GC.GetTotalAllocatedBytes(precise) before and after N sequential requests of one
/// endpoint on a warm host, divided by N: every thread counts (async hops, the SQLite group-commit writer),
/// and so does the harness's own client side, which is the same code for both apps (see the floor row).
/// Allocation counts do not depend on machine load, so these figures are not noisy the way timings are.
///   dotnet artifacts/bin/OrderService.Benchmarks/release/OrderService.Benchmarks.dll allocations [N]
/// </summary>
public static class AllocationTable
{
    private const int BatchIds = 10;
    private const int ListingLimit = 10;
    private static AllocationSampler? _sampler;
    private static readonly string[] Endpoints = ["create", "pay", "ship", "complete", "get", "batch (10 ids)", "customer listing (10)"];

    public static async Task RunAsync(int requests, bool types = false)
    {
        using var sampler = types ? new AllocationSampler() : null;
        _sampler = sampler;
        var directory = Directory.CreateTempSubdirectory("orders-alloc-");
        try
        {
            var service = await MeasureServiceAsync(Path.Combine(directory.FullName, "service.db"), requests);
            var reference = await MeasureReferenceAsync(Path.Combine(directory.FullName, "reference.db"), requests);
            Console.WriteLine();
            Console.WriteLine($"| endpoint | service B/request | Dapper + reflection JSON B/request | ratio |");
            Console.WriteLine("|---|---|---|---|");
            foreach (var endpoint in Endpoints.Append("floor (harness: client + TestServer, 404)"))
            {
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"| {endpoint} | {service[endpoint]:N0} | {reference[endpoint]:N0} | {(double)service[endpoint] / reference[endpoint]:0.00}x |"));
            }

            Console.WriteLine();
            Console.WriteLine($"{requests} sequential requests per endpoint after a warm-up workflow; SQLite; each order has 2 lines; batch, get and listing read completed orders (4 events).");
            if (sampler is not null)
            {
                Console.WriteLine();
                Console.WriteLine("Sampled allocations by type (GCAllocationTick, about one per 100 KB), per app and endpoint:");
                sampler.Print(8);
            }
        }
        finally
        {
            directory.Delete(recursive: true);
        }
    }

    private static async Task<Dictionary<string, long>> MeasureServiceAsync(string file, int requests)
    {
        await using var factory = new ServiceFactory($"Data Source={file}");
        using var client = factory.CreateClient();
        return await MeasureAsync(client, requests, "service");
    }

    private static async Task<Dictionary<string, long>> MeasureReferenceAsync(string file, int requests)
    {
        // The reference runs on the service's schema (its migrations), created here once.
        await using (var bundle = SqliteStores.Create(new StoreContext(new StoreOptions(), $"Data Source={file}", new ServiceCollection().BuildServiceProvider())))
        {
            await bundle.Schema.EnsureCreatedAsync(CancellationToken.None);
        }

        await using var app = await ReferenceApi.StartAsync($"Data Source={file}");
        using var client = app.GetTestClient();
        return await MeasureAsync(client, requests, "reference");
    }

    private static async Task<Dictionary<string, long>> MeasureAsync(HttpClient client, int requests, string app)
    {
        // Warm-up: one whole workflow per endpoint's worth of requests, so JIT, pools and caches are settled.
        await WorkflowAsync(client, Math.Max(20, requests / 4), "warm", null, app);
        var results = new Dictionary<string, long>();
        await WorkflowAsync(client, requests, "measured", results, app);
        return results;
    }

    /// <summary>Creates <paramref name="count"/> orders, pays, ships, completes, reads, batches and lists them, one endpoint at a time.</summary>
    private static async Task WorkflowAsync(HttpClient client, int count, string customerPrefix, Dictionary<string, long>? results, string app)
    {
        var customer = $"alloc-{customerPrefix}";
        var ids = new string[count];
        await PhaseAsync("create", async i =>
        {
            using var response = await SendAsync(client, HttpMethod.Post, "/orders",
                $$"""{"customerId":"{{customer}}","lines":[{"sku":"SKU-1","quantity":1,"unitPrice":12.50},{"sku":"SKU-2","quantity":2,"unitPrice":10.00}]}""",
                HttpStatusCode.Created);
            ids[i] = response.Headers.Location!.OriginalString["/orders/".Length..];
        });
        await PhaseAsync("pay", i => ExpectAsync(client, HttpMethod.Post, $"/orders/{ids[i]}/pay", """{"paymentReference":"pay-1"}""", HttpStatusCode.OK));
        await PhaseAsync("ship", i => ExpectAsync(client, HttpMethod.Post, $"/orders/{ids[i]}/ship", """{"carrier":"DHL","trackingNumber":"TRACK-1"}""", HttpStatusCode.OK));
        await PhaseAsync("complete", i => ExpectAsync(client, HttpMethod.Post, $"/orders/{ids[i]}/complete", null, HttpStatusCode.OK));
        await PhaseAsync("get", i => ExpectAsync(client, HttpMethod.Get, $"/orders/{ids[i]}", null, HttpStatusCode.OK));
        await PhaseAsync("batch (10 ids)", i =>
        {
            var batch = string.Join(",", Enumerable.Range(i, BatchIds).Select(k => $"\"{ids[k % count]}\""));
            return ExpectAsync(client, HttpMethod.Post, "/orders/batch", $$"""{"ids":[{{batch}}]}""", HttpStatusCode.OK);
        });
        await PhaseAsync("customer listing (10)", _ => ExpectAsync(client, HttpMethod.Get, $"/customers/{customer}/orders?limit={ListingLimit}", null, HttpStatusCode.OK));
        await PhaseAsync("floor (harness: client + TestServer, 404)", _ => ExpectAsync(client, HttpMethod.Get, "/no-such-endpoint", null, HttpStatusCode.NotFound));

        async Task PhaseAsync(string endpoint, Func<int, Task> request)
        {
            GC.Collect();
            GC.WaitForPendingFinalizers();
            var before = GC.GetTotalAllocatedBytes(precise: true);
            _sampler?.Phase = results is null ? null : $"{app} {endpoint}";
            for (var i = 0; i < count; i++)
            {
                await request(i);
            }

            _sampler?.Phase = null;
            var allocated = GC.GetTotalAllocatedBytes(precise: true) - before;
            results?.Add(endpoint, allocated / count);
        }
    }

    private static async Task ExpectAsync(HttpClient client, HttpMethod method, string path, string? json, HttpStatusCode expected)
    {
        using var response = await SendAsync(client, method, path, json, expected);
    }

    private static async Task<HttpResponseMessage> SendAsync(HttpClient client, HttpMethod method, string path, string? json, HttpStatusCode expected)
    {
        using var request = new HttpRequestMessage(method, path);
        if (json is not null)
        {
            request.Content = new StringContent(json, Encoding.UTF8, "application/json");
        }

        var response = await client.SendAsync(request);
        // The whole body is read (into nothing), so a streamed answer is produced in full inside the window.
        await response.Content.CopyToAsync(Stream.Null);
        if (response.StatusCode != expected)
        {
            throw new InvalidOperationException($"{method} {path}: {(int)response.StatusCode}, expected {(int)expected}.");
        }

        return response;
    }

    /// <summary>The real service in memory on its defaults, with SQLite in a temporary file and logging at Warning.</summary>
    private sealed class ServiceFactory : WebApplicationFactory<OrderService.Apis.OrderStream>
    {
        private readonly string _connectionString;

        public ServiceFactory(string connectionString)
        {
            _connectionString = connectionString;

            // The factory looks for the content root beside the solution by assembly name; the project lives in src/.
            Environment.SetEnvironmentVariable("ASPNETCORE_TEST_CONTENTROOT_ORDERSERVICE", Path.Combine(BenchPaths.RepositoryRoot(), "src", "OrderService"));
        }

        protected override void ConfigureWebHost(IWebHostBuilder builder)
        {
            builder.UseEnvironment("Testing");
            builder.UseSetting("Authorization:Mode", "None");
            builder.UseSetting("ConnectionStrings:Orders", _connectionString);
            builder.ConfigureLogging(logging => logging.ClearProviders());
        }
    }
}
