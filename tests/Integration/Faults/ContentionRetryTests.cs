using System.Collections.Concurrent;
using System.Diagnostics.Metrics;
using System.Net;
using System.Net.Http.Json;
using Microsoft.Data.Sqlite;
using OrderService.Data;
using OrderService.Integration.Tests.Api;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Servers;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Faults;

/// <summary>
/// Contention is retried: a unit the store rolled back (SQLite BUSY past busy_timeout, PostgreSQL 40001
/// under SERIALIZABLE) is rerun whole, with full-jitter backoff inside the total timeout, and the caller
/// never sees it. Each rerun is counted (orderservice.store.retries, fault rolled_back).
/// </summary>
public sealed class ContentionRetryTests(ApiHost host, PostgresServer postgres) : IClassFixture<ApiHost>, IDisposable
{
    private readonly RetryCounter _retries = new();

    [Theory]
    [Trait(StoreTraits.Store, StoreTraits.SQLite)]
    [InlineData(10, HttpStatusCode.Created)]
    [InlineData(0, HttpStatusCode.ServiceUnavailable)]
    public async Task A_write_that_meets_a_held_SQLite_lock_is_rerun_until_the_lock_is_gone(int maxRetries, HttpStatusCode expected)
    {
        var file = host.PathFor($"busy-{Guid.NewGuid():N}.db");
        await using var service = host.Create(
            ("ConnectionStrings:Orders", $"Data Source={file}"),
            ("Store:Sqlite:BusyTimeoutMilliseconds", "50"),

            // Microsoft.Data.Sqlite itself retries BUSY until the command timeout: that is what surfaces as BUSY.
            ("Store:CommandTimeoutSeconds", "1"),
            ("Resilience:MaxRetries", maxRetries.ToString(System.Globalization.CultureInfo.InvariantCulture)),

            // BUSY is a conflict the store rolled back: its budget is MaxConflictRetries.
            ("Resilience:MaxConflictRetries", maxRetries.ToString(System.Globalization.CultureInfo.InvariantCulture)),
            ("Resilience:RetryDelayMilliseconds", "100"),
            ("Resilience:TotalTimeoutSeconds", "20"),
            ("Resilience:AttemptTimeoutSeconds", "5"));
        using var client = service.CreateClient();
        await ApiHost.CreateOrderAsync(client, ApiHost.NewCustomer()); // the schema exists

        // Another process's writer: it holds the write lock for longer than busy_timeout and the command timeout.
        await using (var other = new SqliteConnection($"Data Source={file};Pooling=False"))
        {
            await other.OpenAsync(ApiHost.Ct);
            using (var begin = other.CreateCommand())
            {
                begin.CommandText = "BEGIN IMMEDIATE;";
                await begin.ExecuteNonQueryAsync(ApiHost.Ct);
            }

            var release = Task.Delay(TimeSpan.FromMilliseconds(2500), ApiHost.Ct).ContinueWith(
                _ =>
                {
                    using var commit = other.CreateCommand();
                    commit.CommandText = "COMMIT;";
                    commit.ExecuteNonQuery();
                },
                ApiHost.Ct,
                TaskContinuationOptions.None,
                TaskScheduler.Default);

            using var response = await client.PostAsJsonAsync("/orders", ApiHost.ValidOrder(ApiHost.NewCustomer()), ApiHost.Ct);
            response.StatusCode.ShouldBe(expected, await response.Content.ReadAsStringAsync(ApiHost.Ct));
            await release;
        }

        if (maxRetries > 0)
        {
            _retries.Of("sqlite", "Microsoft.Data.Sqlite.SqliteException").ShouldBeGreaterThan(0, "the BUSY attempt was rerun");
        }
    }

    [Fact]
    [Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
    public async Task Serialization_failures_under_SERIALIZABLE_are_rerun_so_concurrent_transitions_get_one_winner_and_409s_never_503s()
    {
        var server = await postgres.GetAsync();
        await using var service = new OrderServiceFactory(new Dictionary<string, string?>(StoreFixture.AnsweringBounds)
        {
            ["Store:Provider"] = "PostgreSql",
            ["Store:WriteIsolation"] = "Serializable",
            ["ConnectionStrings:Orders"] = await server.CreateDatabaseAsync("serializable", ApiHost.Ct),
            ["Resilience:MaxConflictRetries"] = "8",
        });
        using var client = service.CreateClient();
        var api = new OrderApi(client, TestContext.Current.CancellationToken);

        for (var round = 0; round < 5; round++)
        {
            var order = await api.CreateOrderAsync(Ids.NewCustomer());
            var answers = await Task.WhenAll(Enumerable.Range(0, 8).Select(async _ =>
            {
                using var response = await api.TransitionAsync(order.Id, "cancel");
                return response.StatusCode;
            }));

            answers.Count(s => s == HttpStatusCode.OK).ShouldBe(1, string.Join(", ", answers));
            answers.Count(s => s == HttpStatusCode.Conflict).ShouldBe(7, string.Join(", ", answers));
            (await api.GetOrderAsync(order.Id)).Events.Count.ShouldBe(2);
        }

        _retries.Of("postgresql", "Npgsql.PostgresException").ShouldBeGreaterThan(0, "some transitions met 40001 and were rerun");
    }

    public void Dispose() => _retries.Dispose();

    /// <summary>Counts orderservice.store.retries for rolled-back units (the meter is process-wide: filtered by store and error).</summary>
    private sealed class RetryCounter : IDisposable
    {
        private readonly MeterListener _listener = new();
        private readonly ConcurrentBag<(string System, string Fault, string Error)> _seen = [];

        public RetryCounter()
        {
            _listener.InstrumentPublished = (instrument, listener) =>
            {
                if (instrument.Meter.Name == StoreTelemetry.Name && instrument.Name == "orderservice.store.retries")
                {
                    listener.EnableMeasurementEvents(instrument);
                }
            };
            _listener.SetMeasurementEventCallback<long>((_, _, tags, _) =>
            {
                string? system = null, fault = null, error = null;
                foreach (var tag in tags)
                {
                    switch (tag.Key)
                    {
                        case "db.system": system = tag.Value as string; break;
                        case "orderservice.store.fault": fault = tag.Value as string; break;
                        case "error.type": error = tag.Value as string; break;
                    }
                }

                _seen.Add((system ?? "", fault ?? "", error ?? ""));
            });
            _listener.Start();
        }

        public int Of(string system, string error) => _seen.Count(r => r.System == system && r.Fault == "rolled_back" && r.Error == error);

        public void Dispose() => _listener.Dispose();
    }
}
