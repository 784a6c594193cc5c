using System.Buffers;
using System.Text;
using System.Text.Json;
using MongoDB.Driver;
using OrderService.Data;
using OrderService.Integration.Tests.Faults;
using OrderService.Integration.Tests.Servers;
using OrderService.Integration.Tests.StorePort;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Reads;

/// <summary>
/// The JSON reads through the resilience decorator against a real server: a rows stream whose first find loses its
/// reply (a relay drops the connection, <see cref="TcpProxy"/>) is re-opened and yields every order once; the JSON rows
/// of a batch and a page are the same orders, in the same order, as the Order reads.
/// </summary>
[Collection(nameof(MongoStoresCollection))]
[Trait(StoreTraits.Store, StoreTraits.MongoDb)]
public sealed class MongoRawJsonStreamTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task A_page_whose_first_row_fails_is_reopened_from_the_start_and_yields_every_order_once()
    {
        await MongoTestServer.RequireServerAsync();
        var server = MongoUrl.Create(MongoTestServer.Uri!).Server;
        await using var proxy = new TcpProxy(server.Host, server.Port);

        // The driver's own retry of a read is off, so the lost reply reaches the resilience pipeline.
        await using var store = await MongoScratchStore.OpenAsync(uri: u =>
        {
            u.Server = new MongoServerAddress("127.0.0.1", proxy.Port);
            u.RetryReads = false;
        });
        var customer = "reopen-" + Guid.NewGuid().ToString("N")[..8];
        for (var i = 0; i < 3; i++)
        {
            await store.CreateOrderAsync(customer);
        }

        var json = store.ResilientJson.ShouldNotBeNull();
        var page = await json.ListByCustomerJsonAsync(new CustomerOrdersQuery(customer, null, 10), Ct);
        var expected = await store.Resilient.ListByCustomerAsync(customer, null, 10, Ct).ToListAsync(Ct);
        var connectionsBefore = proxy.Accepted;

        proxy.LoseNextReply();
        var rows = await WriteAllAsync(page.Orders);

        rows.Select(r => r.Id).ShouldBe(expected.Select(o => o.Id));
        proxy.Accepted.ShouldBeGreaterThan(connectionsBefore, "the lost reply dropped a connection and the stream was re-opened on a new one");
    }

    [Fact]
    public async Task The_json_rows_of_a_batch_and_a_page_are_the_orders_of_the_order_reads_in_the_same_order()
    {
        await MongoTestServer.RequireServerAsync();
        await using var store = await MongoScratchStore.OpenAsync();
        var customer = "rows-" + Guid.NewGuid().ToString("N")[..8];
        var ids = new List<Guid>();
        for (var i = 0; i < 5; i++)
        {
            ids.Add((await store.CreateOrderAsync(customer)).Id);
        }

        var json = store.ResilientJson.ShouldNotBeNull();
        var batch = await RowsAsync(json.GetManyJsonAsync([.. ids, Guid.NewGuid()], Ct));
        var page = await json.ListByCustomerJsonAsync(new CustomerOrdersQuery(customer, null, 3), Ct);
        var pageRows = await RowsAsync(page.Orders);
        var orderPage = await store.Resilient.ListByCustomerAsync(new CustomerOrdersQuery(customer, null, 3), Ct);

        batch.Select(r => r.Id).Order().ShouldBe(ids.Order());
        batch.ShouldAllBe(r => r.Customer);
        pageRows.Select(r => r.Id).ShouldBe(await orderPage.Orders.Select(o => o.Id).ToListAsync(Ct));
        page.Next.ShouldBe(orderPage.Next);
        foreach (var row in batch)
        {
            JsonDocument.Parse(row.Json).RootElement.GetProperty("id").GetGuid().ShouldBe(row.Id);
        }

        async Task<List<(Guid Id, bool Customer, string Json)>> RowsAsync(IAsyncEnumerable<OrderJsonRow> rows) =>
            await rows.Select(r => (r.Id, r.BelongsTo(customer), Write(r))).ToListAsync(Ct);
    }

    private static async Task<List<(Guid Id, string Json)>> WriteAllAsync(IAsyncEnumerable<OrderJsonRow> rows) =>
        await rows.Select(r => (r.Id, Write(r))).ToListAsync(Ct);

    /// <summary>A row is valid until the stream moves on: its JSON is taken at once.</summary>
    private static string Write(OrderJsonRow row)
    {
        var output = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(output))
        {
            row.WriteTo(writer);
        }

        return Encoding.UTF8.GetString(output.WrittenSpan);
    }
}
