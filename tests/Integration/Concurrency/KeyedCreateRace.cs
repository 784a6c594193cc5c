using OrderService.Data;
using OrderService.Integration.Tests.StorePort;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Concurrency;

/// <summary>
/// The race every store must win the same way: many creates with one Idempotency-Key released at once make one order,
/// every other create replays it, and the same key with another body is refused. Shared by the relational and the
/// MongoDB tests so that both hold the store to the same assertions; only counting what was stored differs by engine.
/// </summary>
public static class KeyedCreateRace
{
    /// <param name="store">The store under test.</param>
    /// <param name="countStoredOrders">How many orders the database holds for a customer id, read past the store.</param>
    /// <param name="parallel">How many creates race on one key.</param>
    /// <param name="rounds">How many keys in a row, each raced afresh (a deadlock inside the server may need several).</param>
    public static async Task RunAsync(IOrderStore store, Func<string, CancellationToken, Task<long>> countStoredOrders, int parallel, int rounds = 1)
    {
        var ct = TestContext.Current.CancellationToken;
        for (var round = 0; round < rounds; round++)
        {
            var customer = "cust-" + Guid.NewGuid().ToString("N")[..12];
            var key = "key-" + Guid.NewGuid();
            using var start = new ManualResetEventSlim();

            var attempts = Enumerable.Range(0, parallel).Select(_ => Task.Run(async () =>
            {
                start.Wait(ct);
                return await store.CreateAsync(new NewOrder(TestOrders.New(customer), key, TestOrders.Hash("same body")), ct);
            }, ct)).ToArray();
            start.Set();
            var results = await Task.WhenAll(attempts);

            results.Count(r => r.Outcome == CreateOutcome.Created).ShouldBe(1);
            results.Count(r => r.Outcome == CreateOutcome.Replayed).ShouldBe(parallel - 1);
            results.Select(r => r.Order!.Id).Distinct().ShouldHaveSingleItem();
            (await countStoredOrders(customer, ct)).ShouldBe(1);

            var reused = await store.CreateAsync(new NewOrder(TestOrders.New(customer), key, TestOrders.Hash("other body")), ct);
            reused.Outcome.ShouldBe(CreateOutcome.KeyReusedWithDifferentRequest);
        }
    }
}
