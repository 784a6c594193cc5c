using System.Collections.Concurrent;
using System.Net;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Replicas;

/// <summary>
/// Store:PostgreSql:ReadConnectionString against a real primary and streaming standby. The standby is made to lag
/// deterministically by pausing its replay (pg_wal_replay_pause), so what each read saw tells where it went:
/// the standby shows nothing written after the pause, the primary shows everything.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class StandbyReadsTests(PrimaryWithStandby pair) : IClassFixture<PrimaryWithStandby>
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory]
    [InlineData("Relational")]
    [InlineData("Document")]
    public async Task A_lagging_standby_never_hides_an_acknowledged_order_and_the_listing_shows_what_the_standby_has(string layout)
    {
        var api = new OrderApi(pair.Create(layout, readsFromStandby: true).CreateClient(), Ct);
        var customer = Ids.NewCustomer();
        var replayed = await api.CreateOrderAsync(customer);
        await pair.CatchUpAsync();

        await pair.Standby.PauseReplayAsync(Ct);
        try
        {
            var afterPause = await api.CreateOrderAsync(customer);
            var paid = await api.TransitionOkAsync(replayed.Id, "pay", new { paymentReference = "standby-lag" });
            paid.Version.ShouldBe(2);

            // GET by id: the standby does not have the new order, so the primary answers it: 200, never 404.
            (await api.GetOrderAsync(afterPause.Id)).Version.ShouldBe(1);

            // An order the standby has is answered as the standby has it: the pay is not replayed yet. This is
            // the documented lag, and it is what shows the GET went to the standby at all.
            var stale = await api.GetOrderAsync(replayed.Id);
            stale.Status.ShouldBe("Created");
            stale.Version.ShouldBe(1);

            // Batch: the id the standby misses is re-read on the primary; each order once.
            var batch = await api.BatchAsync([replayed.Id, afterPause.Id, afterPause.Id, Guid.CreateVersion7()]);
            batch.Select(o => o.Id).ShouldBe([replayed.Id, afterPause.Id], ignoreOrder: true);

            // Listing: the standby only, so the order created after the pause is not there yet.
            (await api.ListAsync(customer)).Select(o => o.Id).ShouldBe([replayed.Id]);

            // Writes and the reads inside them stay on the primary: If-Match on the primary's version applies.
            (await api.TransitionOkAsync(afterPause.Id, "pay", new { paymentReference = "p" }, ifMatch: "\"1\"")).Version.ShouldBe(2);

            // The same service without the switch reads the primary: the listing has both (the control).
            var primaryOnly = new OrderApi(pair.Create(layout, readsFromStandby: false).CreateClient(), Ct);
            (await primaryOnly.ListAsync(customer)).Select(o => o.Id).ShouldBe([afterPause.Id, replayed.Id], ignoreOrder: true);
        }
        finally
        {
            await pair.Standby.ResumeReplayAsync(Ct);
        }

        await pair.CatchUpAsync();
        (await api.ListAsync(customer)).Count.ShouldBe(2);
        (await api.GetOrderAsync(replayed.Id)).Status.ShouldBe("Paid");
    }

    [Theory]
    [InlineData("Relational")]
    [InlineData("Document")]
    public async Task A_standby_that_has_not_replayed_the_schema_yet_is_read_around_never_answered_500(string layout)
    {
        // A new database, on both; then the standby stops replaying, and the service creates its tables on the
        // primary only: every read finds no table on the standby, as in the moment after a first deployment.
        var (primary, standby) = await pair.CreateDatabaseAsync("new_deployment");
        await pair.Standby.PauseReplayAsync(Ct);
        try
        {
            var warnings = new ConcurrentQueue<string>();
            await using var host = pair.Create(layout, readsFromStandby: true, readConnectionString: standby, primaryConnectionString: primary)
                .WithWebHostBuilder(web => web.ConfigureLogging(logging => logging.AddProvider(new LogLines(warnings, level => level == LogLevel.Warning))));
            var api = new OrderApi(host.CreateClient(), Ct);
            var customer = Ids.NewCustomer();
            var order = await api.CreateOrderAsync(customer);

            (await api.GetOrderAsync(order.Id)).Id.ShouldBe(order.Id);
            using (var unknown = await api.GetAsync($"/orders/{Guid.CreateVersion7()}"))
            {
                await OrderApi.ReadProblemAsync(unknown, HttpStatusCode.NotFound);
            }

            (await api.BatchAsync([order.Id, Guid.CreateVersion7()])).Select(o => o.Id).ShouldBe([order.Id]);
            (await api.ListAsync(customer)).Select(o => o.Id).ShouldBe([order.Id], "the listing too is read on the primary");

            // Said, so that a read connection string naming a database without the tables does not go unnoticed;
            // once for all the reads above, not once a read.
            warnings.Count(w => w.StartsWith("The standby has no table", StringComparison.Ordinal)).ShouldBe(1, string.Join('\n', warnings));
        }
        finally
        {
            await pair.Standby.ResumeReplayAsync(Ct);
        }
    }

    [Fact]
    public async Task An_order_that_exists_nowhere_is_still_404()
    {
        var api = new OrderApi(pair.Create("Relational", readsFromStandby: true).CreateClient(), Ct);
        using var response = await api.GetAsync($"/orders/{Guid.CreateVersion7()}");
        await OrderApi.ReadProblemAsync(response, HttpStatusCode.NotFound);
    }

    [Fact]
    public async Task A_read_connection_string_that_does_not_parse_stops_start_up_with_one_line_that_hides_it()
    {
        var host = pair.Create("Relational", readsFromStandby: true, readConnectionString: "Hots=127.0.0.1;Pasword=secret");
        var failure = Should.Throw<OptionsValidationException>(() => host.CreateClient());
        var line = failure.Failures.ShouldHaveSingleItem();
        line.ShouldStartWith("Invalid setting Store:PostgreSql:ReadConnectionString = (value hidden");
        line.ShouldNotContain("secret");
    }
}
