using System.Collections.Concurrent;
using System.Net;
using System.Net.Http.Json;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.Logging;
using OrderService.Integration.Tests.Api;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.ScaleOut;

/// <summary>
/// A permanent refusal from the engine is not an outage: a service left at Store:PostgreSql:Distribution=None on a
/// database whose tables are distributed sends its one-statement transition (write and read-back in CTEs), which
/// Citus refuses with 0A000: "could not create distributed plan" for the generic plan that store's sessions keep
/// (plan_cache_mode=force_generic_plan), "complex joins are only supported when ..." for a custom one. That is
/// answered 500, never a 503 with Retry-After that tells clients to send it again, and the log names the SQLSTATE and
/// Citus's own words.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.Citus)]
public sealed class CitusRefusalTests : CitusClusterTests
{
    [Fact]
    public async Task A_statement_Citus_refuses_answers_500_without_Retry_After_and_logs_0A000_with_its_message()
    {
        var connectionString = await Cluster.CreateDatabaseAsync("refusal", Ct);
        Guid id;
        await using (var distributed = new OrderServiceFactory(Settings(connectionString, "Citus")))
        {
            using var client = distributed.CreateClient();
            using var create = await client.PostAsJsonAsync("/orders", ApiHost.ValidOrder(ApiHost.NewCustomer()), Ct);
            create.StatusCode.ShouldBe(HttpStatusCode.Created);
            id = (await create.Content.ReadFromJsonAsync<IdOnly>(Ct))!.Id;
        }

        var errors = new ConcurrentQueue<string>();
        await using var plain = new OrderServiceFactory(Settings(connectionString, "None"));
        await using var logged = plain.WithWebHostBuilder(web => web.ConfigureLogging(logging => logging.AddProvider(new LogLines(errors, level => level >= LogLevel.Error, withException: true))));
        using var plainClient = logged.CreateClient();
        for (var attempt = 0; attempt < 3; attempt++)
        {
            using var pay = await plainClient.PostAsJsonAsync($"/orders/{id}/pay", new { paymentReference = "P-1" }, Ct);
            pay.StatusCode.ShouldBe(HttpStatusCode.InternalServerError, await pay.Content.ReadAsStringAsync(Ct));
            pay.Headers.RetryAfter.ShouldBeNull("a refusal is no outage: retrying cannot help");
        }

        errors.ShouldContain(line => line.Contains("SQLSTATE 0A000", StringComparison.Ordinal)
            && (line.Contains("could not create distributed plan", StringComparison.Ordinal) || line.Contains("complex joins", StringComparison.Ordinal)));

        // The refusals did not open the circuit: a read still reaches the engine, which refuses its generic plan too (its
        // subqueries per order). An open circuit would answer 503 with Retry-After without asking.
        using var read = await plainClient.GetAsync($"/orders/{id}", Ct);
        read.StatusCode.ShouldBe(HttpStatusCode.InternalServerError, await read.Content.ReadAsStringAsync(Ct));
        read.Headers.RetryAfter.ShouldBeNull();
    }

    private static Dictionary<string, string?> Settings(string connectionString, string distribution) => new(StringComparer.OrdinalIgnoreCase)
    {
        ["Store:Provider"] = "PostgreSql",
        ["Store:PostgreSql:Distribution"] = distribution,
        ["ConnectionStrings:Orders"] = connectionString,
        // The test engine's coordinator and workers share 2 cores with the parallel suites: the same room as the
        // Citus conformance fixture, so a slow cold create is not taken for an outage.
        ["Resilience:AttemptTimeoutSeconds"] = "10",
        ["Resilience:TotalTimeoutSeconds"] = "30",
    };

    private sealed record IdOnly(Guid Id);
}
