using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.Logging;
using Npgsql;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Faults;

/// <summary>
/// The circuit breaker across a real outage: PostgreSQL stops under a stream of requests. The circuit
/// opens; while open, answers are 503 at once (far under the attempt timeout) with Retry-After no longer
/// than the break, and no connection reaches the store (a relay in front of it counts them); readiness
/// is red; after the restart the circuit closes through a half-open call, with no service restart.
/// The test owns a throwaway cluster, since stopping the shared one would break the tests beside it.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class PostgresCircuitBreakerTests
{
    private const int BreakSeconds = 4;
    private const int AttemptTimeoutSeconds = 5;
    private static readonly TimeSpan FarUnderTheAttemptTimeout = TimeSpan.FromSeconds(1);
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(45);

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Stopping_PostgreSQL_under_load_opens_the_circuit_and_it_closes_again_after_the_restart()
    {
        if (ThrowawayPostgres.FindBinDirectory() is null && Environment.GetEnvironmentVariable(ThrowawayPostgres.ExternalServerVariable) is not null)
        {
            Assert.Skip($"Stopping a server needs local PostgreSQL binaries; only {ThrowawayPostgres.ExternalServerVariable} is available.");
        }

        await using var postgres = await ThrowawayPostgres.StartLocalAsync(cancellationToken: Ct);
        var direct = new NpgsqlConnectionStringBuilder(await postgres.CreateDatabaseAsync("circuit", Ct));
        await using var proxy = new TcpProxy(direct.Host!, direct.Port);
        var relayed = new NpgsqlConnectionStringBuilder(direct.ConnectionString) { Host = "127.0.0.1", Port = proxy.Port };
        var events = new ResilienceEvents();
        await using var factory = new OrderServiceFactory(new Dictionary<string, string?>
        {
            ["Store:Provider"] = "PostgreSql",
            ["ConnectionStrings:Orders"] = relayed.ConnectionString,
            ["Resilience:AttemptTimeoutSeconds"] = AttemptTimeoutSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["Resilience:TotalTimeoutSeconds"] = "10",
            ["Resilience:CircuitBreakSeconds"] = BreakSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture),
            ["Resilience:CircuitMinimumThroughput"] = "5",
        });
        await using var host = factory.WithWebHostBuilder(web => web.ConfigureLogging(logging => logging.AddProvider(events).AddFilter<ResilienceEvents>(ResilienceEvents.Category, LogLevel.Information)));
        using var client = host.CreateClient();
        var api = new OrderApi(client, Ct);
        await api.CreateOrderAsync(Ids.NewCustomer());

        using var stream = new RequestStream(api);
        await stream.WaitForAsync(static a => a.Status == 201, 10, Bound);

        await postgres.StopAsync(Ct);

        // The circuit opens: answers say so, and say how long the break has left.
        var firstOpen = await stream.WaitForAsync(static a => a.CircuitOpen, 1, Bound);
        events.Saw("OnCircuitOpened").ShouldBeTrue("the circuit opening is logged");
        var accepted = proxy.Accepted;
        await Task.Delay(TimeSpan.FromSeconds(1.5), Ct);
        proxy.Accepted.ShouldBe(accepted, "an open circuit answers without touching the store");

        using (var ready = await client.GetAsync("/health/ready", Ct))
        {
            ready.StatusCode.ShouldBe(HttpStatusCode.ServiceUnavailable, "readiness is red while the circuit is open");
        }

        await postgres.RestartAsync(Ct);
        var restarted = Stopwatch.GetTimestamp();

        await api.WaitUntilReadyAsync(Bound, "/health/ready must turn green by itself once the server is back");
        await stream.WaitForAsync(a => a.Status == 201 && a.Started > restarted, 5, Bound);
        events.Saw("OnCircuitHalfOpened").ShouldBeTrue("the circuit closes through a half-open call");
        events.Saw("OnCircuitClosed").ShouldBeTrue();
        var answers = await stream.StopAsync();

        answers.ShouldAllBe(a => a.Status == 201 || a.Status == 200 || a.Status == 503, "an outage is 503, never a 500 or a hang");
        var open = answers.Where(a => a.CircuitOpen).ToList();
        open.Count.ShouldBeGreaterThan(10);
        open.ShouldAllBe(a => a.Elapsed < FarUnderTheAttemptTimeout, $"an open circuit answers far under the attempt timeout ({AttemptTimeoutSeconds} s)");
        open.ShouldAllBe(a => a.RetryAfter >= 1 && a.RetryAfter <= BreakSeconds, "Retry-After is what is left of the break");
        answers.Where(a => a.Status == 503).ShouldAllBe(a => a.RetryAfter >= 1, "every 503 says when to retry");
        answers.ShouldContain(a => a.CircuitOpen && a.Started > firstOpen.Started && a.RetryAfter < BreakSeconds, "the break counts down");
    }


    /// <summary>One answer of the stream: when it was sent, how long it took, what it said.</summary>
    private sealed record Answer(long Started, TimeSpan Elapsed, int Status, int RetryAfter, bool CircuitOpen);

    /// <summary>A few clients creating and reading orders back to back until stopped, keeping every answer.</summary>
    private sealed class RequestStream : IDisposable
    {
        private readonly ConcurrentQueue<Answer> _answers = new();
        private readonly CancellationTokenSource _stop = new();
        private readonly Task _clients;

        public RequestStream(OrderApi api) =>
            _clients = Task.WhenAll(Enumerable.Range(0, 4).Select(_ => Task.Run(() => RunAsync(api))));

        public async Task<Answer> WaitForAsync(Func<Answer, bool> match, int count, TimeSpan bound)
        {
            var clock = Stopwatch.StartNew();
            while (_answers.Count(match) < count)
            {
                clock.Elapsed.ShouldBeLessThan(bound, "the stream never saw the expected answers");
                await Task.Delay(50, Ct);
            }

            return _answers.First(match);
        }

        public async Task<List<Answer>> StopAsync()
        {
            await _stop.CancelAsync();
            await _clients;
            return [.. _answers];
        }

        public void Dispose()
        {
            _stop.Cancel();
            _stop.Dispose();
        }

        private async Task RunAsync(OrderApi api)
        {
            while (!_stop.IsCancellationRequested)
            {
                var started = Stopwatch.GetTimestamp();
                try
                {
                    using var response = await api.CreateAsync(Ids.NewCustomer(), idempotencyKey: Ids.NewKey());
                    var retryAfter = (int)(response.Headers.RetryAfter?.Delta?.TotalSeconds ?? 0);
                    var circuitOpen = false;
                    if (response.StatusCode == HttpStatusCode.ServiceUnavailable)
                    {
                        var problem = JsonNode.Parse(await response.Content.ReadAsStringAsync(Ct))!;
                        circuitOpen = problem["detail"]?.GetValue<string>().Contains("circuit", StringComparison.Ordinal) == true;
                    }

                    _answers.Enqueue(new Answer(started, Stopwatch.GetElapsedTime(started), (int)response.StatusCode, retryAfter, circuitOpen));
                }
                catch (OperationCanceledException)
                {
                    return;
                }

                await Task.Delay(20);
            }
        }
    }

    /// <summary>The store pipeline's resilience events as this host logs them (per host, unlike the process-wide meters).</summary>
    private sealed class ResilienceEvents : ILoggerProvider
    {
        public const string Category = "Polly";

        private readonly ConcurrentQueue<string> _events = new();

        public bool Saw(string eventName) => _events.Contains(eventName);

        public ILogger CreateLogger(string categoryName) => new Logger(categoryName == Category ? _events : null);

        public void Dispose()
        {
        }

        private sealed class Logger(ConcurrentQueue<string>? events) : ILogger
        {
            public IDisposable? BeginScope<TState>(TState state)
                where TState : notnull => null;

            public bool IsEnabled(LogLevel logLevel) => events is not null;

            public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
            {
                if (events is not null && state is IReadOnlyList<KeyValuePair<string, object?>> fields
                    && fields.FirstOrDefault(f => f.Key == "EventName").Value is string name)
                {
                    events.Enqueue(name);
                }
            }
        }
    }
}
