using System.Collections.Concurrent;
using System.Net;
using System.Net.Http.Json;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.Logging;
using OrderService.Integration.Tests.Api;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Faults;

/// <summary>
/// An engine error the store cannot classify is still a store fault: 503 with Retry-After (ProblemDetails), logged
/// as an error with the engine's own code and message, never a 500. The real cases here: SQLite pointed at a file
/// that is not a database (SQLITE_NOTADB, 26), which no rerun fixes and which no store rule names; and a stored value
/// the driver fails to read, which it reports with an exception of no engine type at all.
/// </summary>
public sealed class UnclassifiedStoreErrorTests(ApiHost host) : IClassFixture<ApiHost>
{
    [Fact]
    public async Task A_file_that_is_not_a_database_answers_503_with_Retry_After_and_logs_SQLite_error_26()
    {
        var file = host.PathFor($"not-a-database-{Guid.NewGuid():N}.db");
        await File.WriteAllTextAsync(file, new string('x', 4096), ApiHost.Ct);
        var errors = new ConcurrentQueue<string>();
        await using var factory = host.Create(("ConnectionStrings:Orders", $"Data Source={file}"));
        await using var logged = factory.WithWebHostBuilder(web => web.ConfigureLogging(logging => logging.AddProvider(new LogLines(errors, level => level >= LogLevel.Error))));
        using var client = logged.CreateClient();

        using (var create = await client.PostAsJsonAsync("/orders", ApiHost.ValidOrder(ApiHost.NewCustomer()), ApiHost.Ct))
        {
            create.StatusCode.ShouldBe(HttpStatusCode.ServiceUnavailable, await create.Content.ReadAsStringAsync(ApiHost.Ct));
            OrderApi.ShouldHaveMediaType(create, "application/problem+json");
            create.Headers.RetryAfter.ShouldNotBeNull("a 503 must say when to retry");
        }

        using (var read = await client.GetAsync($"/orders/{Guid.CreateVersion7()}", ApiHost.Ct))
        {
            read.StatusCode.ShouldBe(HttpStatusCode.ServiceUnavailable);
            read.Headers.RetryAfter.ShouldNotBeNull();
        }

        errors.ShouldContain(line => line.Contains("SQLite error 26", StringComparison.Ordinal) && line.Contains("file is not a database", StringComparison.Ordinal));
        using var live = await client.GetAsync("/health/live", ApiHost.Ct);
        live.StatusCode.ShouldBe(HttpStatusCode.OK);
    }

    [Fact]
    public async Task A_stored_value_the_driver_cannot_read_answers_503_with_Retry_After_and_logs_where_the_driver_failed()
    {
        var file = host.PathFor($"unreadable-{Guid.NewGuid():N}.db");
        var errors = new ConcurrentQueue<string>();
        await using var factory = host.Create(("ConnectionStrings:Orders", $"Data Source={file}"));
        await using var logged = factory.WithWebHostBuilder(web => web.ConfigureLogging(logging => logging.AddProvider(new LogLines(errors, level => level >= LogLevel.Error))));
        using var client = logged.CreateClient();
        var id = (await ApiHost.CreateOrderAsync(client, ApiHost.NewCustomer()))["id"]!.GetValue<string>();

        // Written behind the service's back, as a faulty migration or another program would: SQLite keeps the text in
        // the NUMERIC column, and Microsoft.Data.Sqlite's GetDecimal throws a FormatException when it reads it.
        await using (var connection = new SqliteConnection($"Data Source={file}"))
        {
            await connection.OpenAsync(ApiHost.Ct);
            await using var corrupt = connection.CreateCommand();
            corrupt.CommandText = "UPDATE orders SET total = 'not-a-number'";
            (await corrupt.ExecuteNonQueryAsync(ApiHost.Ct)).ShouldBe(1);
        }

        using var read = await client.GetAsync($"/orders/{id}", ApiHost.Ct);
        read.StatusCode.ShouldBe(HttpStatusCode.ServiceUnavailable, await read.Content.ReadAsStringAsync(ApiHost.Ct));
        OrderApi.ShouldHaveMediaType(read, "application/problem+json");
        read.Headers.RetryAfter.ShouldNotBeNull("a 503 must say when to retry");
        errors.ShouldContain(line => line.Contains("FormatException inside Microsoft.Data.Sqlite.", StringComparison.Ordinal));
    }
}
