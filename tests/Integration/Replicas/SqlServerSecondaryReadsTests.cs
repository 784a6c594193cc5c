using System.Net;
using Microsoft.Data.SqlClient;
using OrderService.Data.Hosting;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Conformance.Stores;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Replicas;

/// <summary>
/// Store:SqlServer:ReadConnectionString. No engine here has an availability group (Babelfish has none), so the
/// "secondary" is a second database on the same server that has the schema but not the primary's rows: a secondary
/// that lags without end. What each read answers then tells where it went, as with the PostgreSQL standby whose
/// replay is paused (StandbyReadsTests). The connection string carries ApplicationIntent=ReadOnly, as one to a
/// listener would.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.SqlServer)]
public sealed class SqlServerSecondaryReadsTests : IClassFixture<SqlServerRelationalStore>
{
    private readonly SqlServerRelationalStore _store;

    public SqlServerSecondaryReadsTests(SqlServerRelationalStore store)
    {
        _store = store;
        if (store.UnavailableReason is { } reason)
        {
            Assert.Skip(reason);
        }
    }

    [Fact]
    public async Task Reads_go_to_the_secondary_a_miss_is_read_on_the_primary_and_writes_stay_on_the_primary()
    {
        // The secondary: its own database and schema, and one order that only it has.
        await using var secondaryHost = await _store.CreateFactoryAsync("secondary", []);
        var secondaryApi = new OrderApi(secondaryHost.CreateClient(), TestContext.Current.CancellationToken);
        var onlyOnSecondary = await secondaryApi.CreateOrderAsync(Ids.NewCustomer());
        var secondary = new SqlConnectionStringBuilder(secondaryHost.Settings[$"ConnectionStrings:{StoreRegistration.ConnectionStringName}"])
        {
            ApplicationIntent = ApplicationIntent.ReadOnly,
        }.ConnectionString;

        await using var host = await _store.CreateFactoryAsync("reads_on_secondary", [new("Store:SqlServer:ReadConnectionString", secondary)]);
        var api = new OrderApi(host.CreateClient(), TestContext.Current.CancellationToken);
        var customer = Ids.NewCustomer();
        var onPrimary = await api.CreateOrderAsync(customer);

        // GET by id: the secondary answers what it has, which the primary has not: the read went there.
        (await api.GetOrderAsync(onlyOnSecondary.Id)).Id.ShouldBe(onlyOnSecondary.Id);

        // An order the secondary misses is read again on the primary: 200, never 404.
        (await api.GetOrderAsync(onPrimary.Id)).Version.ShouldBe(1);

        // Batch: the secondary's order, and the primary's for the id the secondary missed; each once.
        var batch = await api.BatchAsync([onlyOnSecondary.Id, onPrimary.Id, onPrimary.Id, Guid.CreateVersion7()]);
        batch.Select(o => o.Id).ShouldBe([onlyOnSecondary.Id, onPrimary.Id], ignoreOrder: true);

        // Listing: the secondary only, so the primary's new order is not there (the documented lag).
        (await api.ListAsync(customer)).ShouldBeEmpty();
        (await api.ListAsync(onlyOnSecondary.CustomerId)).Select(o => o.Id).ShouldBe([onlyOnSecondary.Id]);

        // Writes, and the reads inside them, stay on the primary: If-Match on the primary's version applies.
        (await api.TransitionOkAsync(onPrimary.Id, "pay", new { paymentReference = "p" }, ifMatch: "\"1\"")).Version.ShouldBe(2);
        using var missing = await api.PostAsync($"/orders/{onlyOnSecondary.Id}/pay", new { paymentReference = "p" });
        await OrderApi.ReadProblemAsync(missing, HttpStatusCode.NotFound);
    }
}
