using System.Net;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Npgsql;
using OrderService.Data.Hosting;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Servers;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Faults;

/// <summary>
/// The rerun rule against a real PostgreSQL whose reply is lost after it committed (a relay drops the
/// connection once the request went through): a write is rerun only when a rerun recognises its own
/// first attempt. A create is rerun (the order id makes it return the first order); a transition with
/// If-Match is rerun (the version check matches nothing: 409, no second event); a transition without
/// If-Match is not (503: the client learns the outcome is unknown, not a false 409).
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class PostgresLostReplyTests(PostgresServer server) : IAsyncLifetime
{
    private TcpProxy _proxy = null!;
    private OrderServiceFactory _factory = null!;
    private OrderApi _api = null!;

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task A_transition_without_If_Match_whose_reply_is_lost_is_not_rerun_and_answers_503()
    {
        var order = await _api.CreateOrderAsync(Ids.NewCustomer());

        _proxy.LoseNextReply();
        using (var lost = await _api.TransitionAsync(order.Id, "pay"))
        {
            await OrderApi.ReadProblemAsync(lost, HttpStatusCode.ServiceUnavailable);
        }

        var stored = await _api.GetOrderAsync(order.Id);
        stored.Status.ShouldBe("Paid", "the write reached the server and committed; only its reply was lost");
        stored.Events.Count(e => e.Type == "Paid").ShouldBe(1);
    }

    [Fact]
    public async Task A_transition_with_If_Match_whose_reply_is_lost_is_rerun_and_the_version_check_stops_a_second_event()
    {
        var order = await _api.CreateOrderAsync(Ids.NewCustomer());

        _proxy.LoseNextReply();
        using (var rerun = await _api.TransitionAsync(order.Id, "pay", ifMatch: "\"1\""))
        {
            var problem = await OrderApi.ReadProblemAsync(rerun, HttpStatusCode.Conflict);
            problem["type"]!.GetValue<string>().ShouldEndWith("stale-version");
            problem["currentVersion"]!.GetValue<int>().ShouldBe(2, "the rerun found its own first attempt committed");
        }

        var stored = await _api.GetOrderAsync(order.Id);
        stored.Version.ShouldBe(2);
        stored.Events.Count(e => e.Type == "Paid").ShouldBe(1);
    }

    [Fact]
    public async Task A_create_whose_reply_is_lost_is_rerun_and_returns_the_first_order()
    {
        var customer = Ids.NewCustomer();

        _proxy.LoseNextReply();
        using (var rerun = await _api.CreateAsync(customer))
        {
            await OrderApi.ReadOrderAsync(rerun, HttpStatusCode.Created);
            rerun.Headers.GetValues("Idempotent-Replayed").ShouldBe(["true"], "the rerun found the insert of the lost attempt");
        }

        (await _api.ListAsync(customer)).Count.ShouldBe(1);
    }

    public async ValueTask InitializeAsync()
    {
        var postgres = await server.GetAsync();
        var direct = new NpgsqlConnectionStringBuilder(await postgres.CreateDatabaseAsync("lost_reply", Ct));
        _proxy = new TcpProxy(direct.Host!, direct.Port);
        var relayed = new NpgsqlConnectionStringBuilder(direct.ConnectionString) { Host = "127.0.0.1", Port = _proxy.Port };
        _factory = new OrderServiceFactory(new Dictionary<string, string?>
        {
            ["Store:Provider"] = "PostgreSql",
            ["Store:Layout"] = "Relational",
            ["ConnectionStrings:Orders"] = relayed.ConnectionString,
        });
        _api = new OrderApi(_factory.CreateClient(), Ct);

        // The warm-up's pings must be over before a test arms the relay, or one of them would lose its reply.
        var warmUp = _factory.Services.GetServices<IHostedService>().OfType<StoreWarmUp>().Single();
        await warmUp.ExecuteTask!.WaitAsync(Ct);
    }

    public async ValueTask DisposeAsync()
    {
        _api.Http.Dispose();
        await _factory.DisposeAsync();
        await _proxy.DisposeAsync();
    }
}
