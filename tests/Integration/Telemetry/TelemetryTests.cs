using System.Diagnostics;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using OpenTelemetry.Logs;
using OpenTelemetry.Metrics;
using OpenTelemetry.Trace;
using OrderService.Data;
using OrderService.Integration.Tests.Api;
using Shouldly;
using Xunit;
using ServiceTelemetry = OrderService.ServiceDefaults.Telemetry;

namespace OrderService.Integration.Tests.Telemetry;

/// <summary>
/// What the service emits, seen through OpenTelemetry's in-memory exporter added to the service's own
/// description (the same sources, instrumentation and meters the OTLP exporter gets), and what it does
/// not register, or even load, when nothing exports.
/// </summary>
public sealed class TelemetryTests(ApiHost host) : IClassFixture<ApiHost>
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task One_request_gives_a_server_span_with_its_route_a_child_store_span_and_the_request_and_store_metrics()
    {
        var spans = new LockedList<Activity>();
        var metrics = new LockedList<MetricSnapshot>();
        var logs = new LockedList<LogRecord>();
        await using var service = host.Create(("Logging:LogLevel:Microsoft.AspNetCore.Hosting.Diagnostics", "Information"));
        await using var traced = service.WithWebHostBuilder(web => web.ConfigureServices(services => ServiceTelemetry.Describe(services).AddOpenTelemetry()
            .WithTracing(tracing => tracing.AddInMemoryExporter(spans))
            .WithMetrics(meters => meters.AddInMemoryExporter(metrics))
            .WithLogging(logging => logging.AddInMemoryExporter(logs))));
        using var client = traced.CreateClient();

        // Our own trace id, so that this request's spans stand out from those of the hosts other tests run beside us.
        var trace = ActivityTraceId.CreateRandom();
        using var request = new HttpRequestMessage(HttpMethod.Post, "/orders") { Content = JsonContent.Create(ApiHost.ValidOrder(ApiHost.NewCustomer())) };
        request.Headers.Add("traceparent", $"00-{trace}-{ActivitySpanId.CreateRandom()}-01");
        using var response = await client.SendAsync(request, ApiHost.Ct);
        response.StatusCode.ShouldBe(HttpStatusCode.Created);
        var created = (await response.Content.ReadFromJsonAsync<JsonObject>(ApiHost.Ct))!;

        var server = await EventuallyAsync(() => spans.Snapshot().SingleOrDefault(s => s.TraceId == trace && s.Kind == ActivityKind.Server));
        server.Source.Name.ShouldBe("Microsoft.AspNetCore");
        server.GetTagItem("http.route").ShouldBe("/orders/", "the route template of POST /orders (group \"/orders\" + \"\")");
        server.GetTagItem("http.response.status_code").ShouldBe(201);

        var store = spans.Snapshot().Single(s => s.Source.Name == StoreTelemetry.Name && s.ParentSpanId == server.SpanId);
        store.TraceId.ShouldBe(server.TraceId);
        store.GetTagItem("db.system").ShouldBe("sqlite");
        store.GetTagItem("db.operation.name").ShouldBe("create");
        spans.Snapshot().ShouldContain(
            s => s.ParentSpanId == store.SpanId && s.Kind == ActivityKind.Client && s.GetTagItem("db.statement") is string,
            "the command the store sent is a child of the store call, with its SQL");

        logs.Snapshot().ShouldContain(l => l.TraceId == server.TraceId, "log records written during the request carry its trace id");

        using (var paid = await client.PostAsync($"/orders/{created["id"]}/pay", EmptyBody(), ApiHost.Ct))
        {
            paid.StatusCode.ShouldBe(HttpStatusCode.OK);
        }

        traced.Services.GetRequiredService<MeterProvider>().ForceFlush().ShouldBeTrue();
        var exported = metrics.Snapshot();
        Points(exported, "http.server.request.duration").ShouldContain(p => Tag(p, "http.route") == "/orders/" && p.GetHistogramCount() >= 1);
        Points(exported, "orderservice.store.call.duration").ShouldContain(p =>
            Tag(p, "db.system") == "sqlite" && Tag(p, "db.operation.name") == "create" && p.GetHistogramCount() >= 1);
        Points(exported, "orderservice.transitions").ShouldContain(p =>
            Tag(p, "order.action") == "pay" && Tag(p, "order.transition.outcome") == "applied" && p.GetSumLong() >= 1);
        Points(exported, "orderservice.store.circuit.state").ShouldContain(p => Tag(p, "db.system") == "sqlite" && p.GetGaugeLastValueLong() == 0);
        Points(exported, "resilience.polly.pipeline.duration").ShouldContain(p => Tag(p, "pipeline.name") == "order-store-sqlite" && p.GetHistogramCount() >= 1,
            "Polly's own telemetry is on for the store pipeline, as AddResiliencePipeline sets it up");
    }

    [Fact]
    public async Task Without_an_OTLP_endpoint_no_provider_exists_so_nothing_listens()
    {
        var registered = new List<ServiceDescriptor>();
        await using var plain = host.Create();
        await using var service = plain.WithWebHostBuilder(web => web.ConfigureTestServices(registered.AddRange));
        using var client = service.CreateClient();

        registered.ShouldNotBeEmpty();
        registered.Where(FromOpenTelemetry).ShouldBeEmpty(
            "nothing of OpenTelemetry is registered, so none of it is loaded or set up at start-up (the service's description included)");

        service.Services.GetService<TracerProvider>().ShouldBeNull("no tracer provider: no ActivityListener samples and records a span per request");
        service.Services.GetService<MeterProvider>().ShouldBeNull("no meter provider: no instrument is enabled");
        service.Services.GetService<LoggerProvider>().ShouldBeNull("no logger provider: no log record is built");
    }

    [Fact]
    public async Task With_an_OTLP_endpoint_every_signal_is_exported()
    {
        // Nothing listens on this port: exports fail quickly and are dropped; the service is unaffected.
        await using var service = host.Create(
            (ServiceTelemetry.EndpointKey, $"http://127.0.0.1:{OrderService.Testing.FreePort.Loopback()}"),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"));
        using var client = service.CreateClient();

        service.Services.GetService<TracerProvider>().ShouldNotBeNull();
        service.Services.GetService<MeterProvider>().ShouldNotBeNull();
        service.Services.GetService<LoggerProvider>().ShouldNotBeNull();
        await ApiHost.CreateOrderAsync(client, ApiHost.NewCustomer());
    }

    private static bool FromOpenTelemetry(ServiceDescriptor service) =>
        new[] { service.ServiceType, service.ImplementationType, service.ImplementationInstance?.GetType() }
            .Any(type => type?.Assembly.GetName().Name?.StartsWith("OpenTelemetry", StringComparison.Ordinal) == true);

    private static StringContent EmptyBody() => new("{}", System.Text.Encoding.UTF8, "application/json");

    private static List<MetricPoint> Points(IEnumerable<MetricSnapshot> metrics, string name) =>
        [.. metrics.Where(m => m.Name == name).SelectMany(m => m.MetricPoints)];

    private static string? Tag(MetricPoint point, string key)
    {
        foreach (var tag in point.Tags)
        {
            if (tag.Key == key)
            {
                return tag.Value?.ToString();
            }
        }

        return null;
    }

    private static async Task<T> EventuallyAsync<T>(Func<T?> probe)
        where T : class
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            if (probe() is { } found)
            {
                return found;
            }

            clock.Elapsed.ShouldBeLessThan(Bound, "the span was never exported");
            await Task.Delay(25, ApiHost.Ct);
        }
    }

    /// <summary>The exporters add from the threads that end spans; the test reads snapshots.</summary>
    private sealed class LockedList<T> : ICollection<T>
    {
        private readonly List<T> _items = [];

        public int Count
        {
            get
            {
                lock (_items)
                {
                    return _items.Count;
                }
            }
        }

        public bool IsReadOnly => false;

        public List<T> Snapshot()
        {
            lock (_items)
            {
                return [.. _items];
            }
        }

        public void Add(T item)
        {
            lock (_items)
            {
                _items.Add(item);
            }
        }

        public void Clear()
        {
            lock (_items)
            {
                _items.Clear();
            }
        }

        public bool Contains(T item) => Snapshot().Contains(item);

        public void CopyTo(T[] array, int arrayIndex) => Snapshot().CopyTo(array, arrayIndex);

        public bool Remove(T item)
        {
            lock (_items)
            {
                return _items.Remove(item);
            }
        }

        public IEnumerator<T> GetEnumerator() => Snapshot().GetEnumerator();

        System.Collections.IEnumerator System.Collections.IEnumerable.GetEnumerator() => GetEnumerator();
    }
}
