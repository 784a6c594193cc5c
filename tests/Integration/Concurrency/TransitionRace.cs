using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.StorePort;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Concurrency;

/// <summary>
/// The other race every store must win the same way: many transitions of one order released at once have exactly one
/// winner, and every loser is a stale version or an illegal step, never a second event. Shared by the relational and
/// the MongoDB tests; each then reads what was stored its own way.
/// </summary>
public static class TransitionRace
{
    /// <param name="store">The store under test.</param>
    /// <param name="orderId">A freshly created order (version 1).</param>
    /// <param name="parallel">How many transitions race.</param>
    /// <param name="withIfMatch">Whether each carries If-Match: 1 (half pay, half cancel) or none (all pay).</param>
    /// <returns>The winner's result.</returns>
    public static async Task<TransitionResult> RunAsync(IOrderStore store, Guid orderId, int parallel, bool withIfMatch)
    {
        var ct = TestContext.Current.CancellationToken;
        using var start = new ManualResetEventSlim();
        var attempts = Enumerable.Range(0, parallel).Select(i => Task.Run(async () =>
        {
            start.Wait(ct);

            // Without If-Match only one action can race: Pay then Cancel is a legal sequence, so mixing
            // them would rightly produce two winners. With If-Match the version guard decides.
            var action = withIfMatch && i % 2 == 1 ? OrderAction.Cancel : OrderAction.Pay;
            return await store.TransitionAsync(TestOrders.Command(orderId, action, withIfMatch ? 1 : null), ct);
        }, ct)).ToArray();
        start.Set();
        var results = await Task.WhenAll(attempts);

        results.Count(r => r.Outcome == TransitionOutcome.Applied).ShouldBe(1);
        results.Where(r => r.Outcome != TransitionOutcome.Applied)
            .ShouldAllBe(r => r.Outcome == TransitionOutcome.StaleVersion || r.Outcome == TransitionOutcome.IllegalFromStatus);
        return results.Single(r => r.Outcome == TransitionOutcome.Applied);
    }
}
