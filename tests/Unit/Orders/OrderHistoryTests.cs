using OrderService.Data;
using OrderService.Data.Orders;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Orders;

/// <summary>
/// What an idempotent replay answers: the order as the keyed step left it, rebuilt from the order alone.
/// Every state along every workflow path is recorded as it was built, then rebuilt from the final order.
/// </summary>
public sealed class OrderHistoryTests
{
    private static readonly DateTimeOffset T0 = new(2025, 1, 2, 3, 4, 5, TimeSpan.Zero);

    /// <summary>Orders compared by value, whatever list types hold their lines and events.</summary>
    private static string Json(Order order) => System.Text.Json.JsonSerializer.Serialize(order);

    public static TheoryData<string> Paths => new("Pay Ship Complete", "Cancel", "Pay Cancel", "Pay Ship");

    [Theory]
    [MemberData(nameof(Paths))]
    public void AsOf_gives_back_every_state_the_order_passed_through(string path)
    {
        var order = Transitions.Create(Guid.CreateVersion7(), "c-1", [new OrderLine("A", 2, 1.25m), new OrderLine("B", 1, 10m)], T0);
        var states = new List<Order> { order };
        var step = 1;
        foreach (var action in path.Split(' ').Select(Enum.Parse<OrderAction>))
        {
            order = Transitions.Apply(order, action, T0.AddSeconds(step++), new OrderEventData(Reason: action.ToString()));
            states.Add(order);
        }

        foreach (var earlier in states)
        {
            var rebuilt = OrderHistory.AsOf(order, earlier.Version);
            Json(rebuilt).ShouldBe(Json(earlier));
        }
    }

    [Fact]
    public void AsOf_refuses_a_version_the_order_has_not_reached()
    {
        var order = Transitions.Apply(Transitions.Create(Guid.CreateVersion7(), "c-1", [new OrderLine("A", 1, 1m)], T0), OrderAction.Pay, T0.AddSeconds(1), new());

        Should.Throw<ArgumentOutOfRangeException>(() => OrderHistory.AsOf(order, 3));
        Should.Throw<ArgumentOutOfRangeException>(() => OrderHistory.AsOf(order, 0));
    }

    [Fact]
    public void AsOf_works_whatever_order_the_store_listed_the_events_in()
    {
        var created = Transitions.Create(Guid.CreateVersion7(), "c-1", [new OrderLine("A", 1, 1m)], T0);
        var paid = Transitions.Apply(created, OrderAction.Pay, T0.AddSeconds(1), new(PaymentReference: "p"));
        var shipped = Transitions.Apply(paid, OrderAction.Ship, T0.AddSeconds(2), new(Carrier: "c", TrackingNumber: "t"));

        Json(OrderHistory.AsOf(shipped with { Events = [.. shipped.Events.Reverse()] }, 2)).ShouldBe(Json(paid));
    }

    [Fact]
    public void A_lookahead_of_limit_plus_one_positions_gives_a_range_of_limit_and_a_next_page()
    {
        var positions = Enumerable.Range(0, 4).Select(i => new OrderPosition(T0.AddSeconds(-i), Guid.CreateVersion7())).ToList();
        PageRange? asked = null;

        var page = OrderPage.FromLookahead(positions, 3, range => { asked = range; return AsyncEnumerable.Empty<Order>(); });

        asked.ShouldBe(new PageRange(positions[0], positions[2]));
        page.Next.ShouldBe(positions[2]);
    }

    [Fact]
    public void A_lookahead_that_finds_at_most_limit_positions_is_the_last_page()
    {
        var positions = Enumerable.Range(0, 3).Select(i => new OrderPosition(T0.AddSeconds(-i), Guid.CreateVersion7())).ToList();
        PageRange? asked = null;

        OrderPage.FromLookahead(positions, 3, range => { asked = range; return AsyncEnumerable.Empty<Order>(); }).Next.ShouldBeNull();
        asked.ShouldBe(new PageRange(positions[0], positions[2]));
        OrderPage.FromLookahead([], 3, _ => throw new InvalidOperationException("no rows to read")).ShouldBeSameAs(OrderPage.Empty);
    }
}
