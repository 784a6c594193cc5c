using System.Text.Json;
using System.Text.RegularExpressions;
using OrderService.Data;
using OrderService.Data.Document;
using OrderService.Data.Orders;
using OrderService.Data.PostgreSql;
using OrderService.Data.Sqlite;
using OrderService.Data.Relational;
using OrderService.Integration.Tests.StorePort;
using OrderService.Integration.Tests.Traits;
using OrderService.Testing;
using Shouldly;
using Xunit;
using static OrderService.Integration.Tests.Layouts.DocumentTestData;

namespace OrderService.Integration.Tests.Layouts;

[Collection(nameof(DocumentCollection))]
[Trait(StoreTraits.Layout, StoreTraits.Document)]
public sealed partial class DocumentCreateAndReadTests(DocumentDatabases databases)
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    [Theory]
    [StoreData(Engine.Sqlite)]
    [StoreData(Engine.PostgreSql)]
    public async Task The_stored_document_is_the_whole_order_in_the_api_json_shape(Engine engine)
    {
        await using var store = await databases.OpenAsync(engine);
        var order = (await store.Store.CreateAsync(NewOrder(), Token)).Order!;
        var paid = (await store.Store.TransitionAsync(Command(order.Id, OrderAction.Pay), Token)).Order!;

        var raw = (await store.RawDocumentAsync(order.Id))!;

        CanonicalJson.From(raw).ShouldBe(CanonicalJson.From(OrderDocument.ToJson(paid)));
        using var document = JsonDocument.Parse(raw);
        var root = document.RootElement;
        root.EnumerateObject().Select(p => p.Name).Order()
            .ShouldBe(["createdAt", "customerId", "events", "id", "lines", "status", "total", "updatedAt", "version"]);
        root.GetProperty("status").GetString().ShouldBe("Paid");
        root.GetProperty("total").GetRawText().ShouldBe("28.00");
        root.GetProperty("lines")[0].GetProperty("unitPrice").GetRawText().ShouldBe("12.50");
        TimestampPattern().IsMatch(root.GetProperty("updatedAt").GetString()!).ShouldBeTrue();
        var payEvent = root.GetProperty("events")[1];
        payEvent.GetProperty("sequence").GetInt32().ShouldBe(2);
        TimestampPattern().IsMatch(payEvent.GetProperty("at").GetString()!).ShouldBeTrue();
        payEvent.GetProperty("data").GetRawText().Replace(" ", "").ShouldBe("""{"paymentReference":"pay-42"}""");
        (await store.ScalarAsync<string>("SELECT status FROM order_documents")).ShouldBe("Paid");
    }

    [Theory]
    [StoreData(Engine.Sqlite)]
    [StoreData(Engine.PostgreSql)]
    public async Task A_retried_insert_of_the_same_order_id_is_replayed_as_its_creation_left_it(Engine engine)
    {
        await using var store = await databases.OpenAsync(engine);
        var request = NewOrder();
        var first = await store.Store.CreateAsync(request, Token);
        await store.Store.TransitionAsync(Command(request.Order.Id, OrderAction.Pay), Token);

        var retry = await store.Store.CreateAsync(request, Token);

        first.Outcome.ShouldBe(CreateOutcome.Created);
        retry.Outcome.ShouldBe(CreateOutcome.Replayed);

        // The first answer again (the order paid since is rebuilt at version 1), as every replay answers.
        OrderDocument.ToJson(retry.Order!).ShouldBe(OrderDocument.ToJson(first.Order!));
        (await store.Store.GetAsync(request.Order.Id, Token))!.Status.ShouldBe(OrderStatus.Paid);
        (await store.ScalarAsync<long>("SELECT count(*) FROM order_documents")).ShouldBe(1);
    }

    [Theory]
    [StoreData(Engine.Sqlite)]
    [StoreData(Engine.PostgreSql)]
    public async Task An_idempotency_key_replays_the_same_request_and_refuses_a_different_one(Engine engine)
    {
        await using var store = await databases.OpenAsync(engine);
        var first = await store.Store.CreateAsync(NewOrder(idempotencyKey: "key-1"), Token);

        var same = await store.Store.CreateAsync(NewOrder(idempotencyKey: "key-1"), Token);
        var different = await store.Store.CreateAsync(NewOrder(idempotencyKey: "key-1", requestHash: "hash-2"), Token);

        first.Outcome.ShouldBe(CreateOutcome.Created);
        same.Outcome.ShouldBe(CreateOutcome.Replayed);
        OrderDocument.ToJson(same.Order!).ShouldBe(OrderDocument.ToJson(first.Order!));
        different.Outcome.ShouldBe(CreateOutcome.KeyReusedWithDifferentRequest);
        (await store.ScalarAsync<long>("SELECT count(*) FROM order_documents")).ShouldBe(1);
    }

    [Theory]
    [StoreData(Engine.Sqlite)]
    [StoreData(Engine.PostgreSql)]
    public async Task Concurrent_creates_with_one_key_make_one_order(Engine engine)
    {
        await using var store = await databases.OpenAsync(engine);

        var results = await Task.WhenAll(Enumerable.Range(0, 20).Select(_ =>
            Task.Run(() => store.Store.CreateAsync(NewOrder(idempotencyKey: "shared-key"), Token), Token)));

        var created = results.Where(r => r.Outcome == CreateOutcome.Created).ShouldHaveSingleItem();
        results.ShouldAllBe(r => r.Order!.Id == created.Order!.Id);
        (await store.ScalarAsync<long>("SELECT count(*) FROM order_documents")).ShouldBe(1);
    }

    [Theory]
    [StoreData(Engine.Sqlite, BatchFilter.Json)]
    [StoreData(Engine.Sqlite, BatchFilter.InList)]
    [StoreData(Engine.PostgreSql, BatchFilter.Json)]
    [StoreData(Engine.PostgreSql, BatchFilter.InList)]
    public async Task A_batch_returns_each_existing_order_once_across_chunks(Engine engine, BatchFilter filter)
    {
        await using var store = await databases.OpenAsync(engine, o => o.BatchFilter = filter);
        var stored = new List<Guid>();
        for (var i = 0; i < 5; i++)
        {
            stored.Add((await store.Store.CreateAsync(NewOrder(), Token)).Order!.Id);
        }

        // 2,500 unknown ids put the stored ones in different InList chunks; repeats must come back once.
        var ids = Enumerable.Range(0, 2_500).Select(_ => Guid.CreateVersion7()).Concat(stored).Concat(stored).Reverse().ToList();
        var found = await store.Store.GetManyAsync(ids, Token).Select(o => o.Id).ToListAsync(Token);

        found.Order().ShouldBe(stored.Order());
        (await store.Store.GetManyAsync([Guid.CreateVersion7()], Token).ToListAsync(Token)).ShouldBeEmpty();
    }

    [Theory]
    [StoreData(Engine.Sqlite)]
    [StoreData(Engine.PostgreSql)]
    public async Task A_customer_listing_is_newest_first_filtered_and_limited(Engine engine)
    {
        await using var store = await databases.OpenAsync(engine);
        var ids = new List<Guid>();
        for (var i = 0; i < 4; i++)
        {
            ids.Add((await store.Store.CreateAsync(NewOrder("c-list", Start.AddMinutes(i)), Token)).Order!.Id);
        }

        await store.Store.CreateAsync(NewOrder("c-other"), Token);
        await store.Store.TransitionAsync(Command(ids[1], OrderAction.Pay), Token);

        (await store.Store.ListByCustomerAsync("c-list", null, 3, Token).Select(o => o.Id).ToListAsync(Token)).ShouldBe([ids[3], ids[2], ids[1]]);
        (await store.Store.ListByCustomerAsync("c-list", OrderStatus.Created, 10, Token).Select(o => o.Id).ToListAsync(Token)).ShouldBe([ids[3], ids[2], ids[0]]);
        (await store.Store.ListByCustomerAsync("c-none", null, 10, Token).ToListAsync(Token)).ShouldBeEmpty();
    }

    [Theory]
    [StoreData(Engine.Sqlite)]
    [StoreData(Engine.PostgreSql)]
    public async Task The_schema_is_versioned_and_applying_it_again_changes_nothing(Engine engine)
    {
        await using var store = await databases.OpenAsync(engine);
        var id = (await store.Store.CreateAsync(NewOrder(), Token)).Order!.Id;

        await store.Schema.EnsureCreatedAsync(Token);
        await store.Schema.EnsureCreatedAsync(Token);

        (await store.ScalarAsync<long>("SELECT count(*) FROM document_schema_versions")).ShouldBe(
            SchemaScripts.Load("DocumentSchema", engine == Engine.Sqlite ? typeof(SqliteStores).Assembly : typeof(PostgreSqlStores).Assembly).Count);
        (await store.Store.GetAsync(id, Token)).ShouldNotBeNull();
        await store.Store.CheckReadyAsync(Token);
    }

    [GeneratedRegex(@"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$")]
    private static partial Regex TimestampPattern();
}
