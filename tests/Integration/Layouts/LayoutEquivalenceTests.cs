using System.Text.Json;
using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.Servers;
using OrderService.Integration.Tests.StorePort;
using OrderService.Integration.Tests.Traits;
using OrderService.Testing;
using Shouldly;
using Xunit;
using static OrderService.Integration.Tests.Layouts.DocumentTestData;

namespace OrderService.Integration.Tests.Layouts;

/// <summary>
/// The layouts are two storages of one resource: the same order, driven through the same steps with the
/// same ids and timestamps, must come back as the same JSON from either, as the API serializes it.
/// </summary>
[Collection(nameof(DocumentCollection))]
public sealed class LayoutEquivalenceTests(DocumentDatabases databases)
{
    private static CancellationToken Token => TestContext.Current.CancellationToken;

    [Theory]
    [Trait(StoreTraits.Layout, StoreTraits.Document)]
    [StoreData(Engine.Sqlite)]
    [StoreData(Engine.PostgreSql)]
    public async Task Relational_and_document_layouts_return_the_same_api_json_for_the_same_order(Engine engine)
    {
        await using var document = await databases.OpenAsync(engine);
        await using var relational = await databases.OpenAsync(engine, layout: StoreLayout.Relational);
        var script = Script.New();

        var fromDocument = await script.RunAsync(document.Store);
        var fromRelational = await script.RunAsync(relational.Store);

        ShouldMatch(fromDocument, fromRelational, $"{engine} document", $"{engine} relational");
    }

    [Fact]
    [Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
    public async Task The_same_order_gives_the_same_api_json_in_all_four_stores()
    {
        var script = Script.New();
        var transcripts = new List<(string Store, IReadOnlyList<(string Step, string Json)> Steps)>();
        foreach (var engine in Enum.GetValues<Engine>())
        {
            foreach (var layout in Enum.GetValues<StoreLayout>())
            {
                await using var store = await databases.OpenAsync(engine, layout: layout);
                transcripts.Add(($"{engine} {layout}", await script.RunAsync(store.Store)));
            }
        }

        foreach (var (name, steps) in transcripts.Skip(1))
        {
            ShouldMatch(transcripts[0].Steps, steps, transcripts[0].Store, name);
        }
    }

    /// <summary>MongoDB stores the same resource natively: the same script gives the same bytes as the SQL layouts (skipped, with the reason, without a server).</summary>
    [Fact]
    [Trait(StoreTraits.Store, StoreTraits.MongoDb)]
    public async Task MongoDB_returns_the_same_api_json_as_the_document_and_relational_layouts()
    {
        await MongoTestServer.RequireServerAsync();
        var script = Script.New();
        await using var sqlite = await databases.OpenAsync(Engine.Sqlite);
        await using var postgres = await databases.OpenAsync(Engine.PostgreSql, layout: StoreLayout.Relational);
        await using var mongo = await MongoScratchStore.OpenAsync();

        var reference = await script.RunAsync(sqlite.Store);

        ShouldMatch(reference, await script.RunAsync(postgres.Store), "Sqlite Document", "PostgreSql Relational");
        ShouldMatch(reference, await script.RunAsync(mongo.Store), "Sqlite Document", "MongoDB");
    }

    /// <summary>Byte-identical API JSON, step by step; the canonical form is compared first so a failure shows what differs in value, not only in spelling.</summary>
    private static void ShouldMatch(IReadOnlyList<(string Step, string Json)> expected, IReadOnlyList<(string Step, string Json)> actual, string expectedStore, string actualStore)
    {
        actual.Select(s => s.Step).ShouldBe(expected.Select(s => s.Step));
        for (var i = 0; i < expected.Count; i++)
        {
            CanonicalJson.From(actual[i].Json).ShouldBe(CanonicalJson.From(expected[i].Json), $"{expected[i].Step}: {actualStore} vs {expectedStore}");
            actual[i].Json.ShouldBe(expected[i].Json, $"{expected[i].Step}: {actualStore} vs {expectedStore} (bytes)");
        }
    }

    /// <summary>Two orders through every kind of step, with ids and timestamps fixed once for all stores.</summary>
    private sealed record Script(NewOrder Completed, NewOrder Cancelled)
    {
        public static Script New() => new(
            NewOrder("c-same", Start, idempotencyKey: $"same-{Guid.NewGuid():N}"),
            NewOrder("c-same", Start.AddSeconds(1)));

        public async Task<IReadOnlyList<(string Step, string Json)>> RunAsync(IOrderStore store)
        {
            var steps = new List<(string, string)>();
            var id = Completed.Order.Id;
            steps.Add(("create", Api((await store.CreateAsync(Completed, Token)).Order!)));
            steps.Add(("create replayed", Api((await store.CreateAsync(Completed, Token)).Order!)));
            steps.Add(("pay", Api((await store.TransitionAsync(Command(id, OrderAction.Pay, 1, step: 1), Token)).Order!)));
            steps.Add(("ship", Api((await store.TransitionAsync(Command(id, OrderAction.Ship, step: 2), Token)).Order!)));
            steps.Add(("complete", Api((await store.TransitionAsync(Command(id, OrderAction.Complete, step: 3), Token)).Order!)));
            steps.Add(("create second", Api((await store.CreateAsync(Cancelled, Token)).Order!)));
            steps.Add(("cancel", Api((await store.TransitionAsync(Command(Cancelled.Order.Id, OrderAction.Cancel, step: 4), Token)).Order!)));
            steps.Add(("get", Api((await store.GetAsync(id, Token))!)));
            var batch = await store.GetManyAsync([Cancelled.Order.Id, id], Token).OrderBy(o => o.Id).ToArrayAsync(Token);
            steps.Add(("get many", JsonSerializer.Serialize(batch, OrderJsonContext.Default.OrderArray)));
            var listing = await store.ListByCustomerAsync("c-same", null, 10, Token).ToArrayAsync(Token);
            steps.Add(("list", JsonSerializer.Serialize(listing, OrderJsonContext.Default.OrderArray)));
            return steps;
        }

        private static string Api(Order order) => JsonSerializer.Serialize(order, OrderJsonContext.Default.Order);
    }
}
