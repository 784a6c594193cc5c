using OrderService.Data.Orders;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Orders;

/// <summary>
/// The workflow rules, checked against a table written here independently of the code:
/// Created -> Paid -> Shipped -> Completed, and Cancel from Created or Paid. Nothing else.
/// </summary>
public sealed class TransitionsTests
{
    private static readonly DateTimeOffset T0 = new(2025, 1, 2, 3, 4, 5, TimeSpan.Zero);

    private static readonly Dictionary<(OrderStatus From, OrderAction Action), OrderStatus> Legal = new()
    {
        [(OrderStatus.Created, OrderAction.Pay)] = OrderStatus.Paid,
        [(OrderStatus.Paid, OrderAction.Ship)] = OrderStatus.Shipped,
        [(OrderStatus.Shipped, OrderAction.Complete)] = OrderStatus.Completed,
        [(OrderStatus.Created, OrderAction.Cancel)] = OrderStatus.Cancelled,
        [(OrderStatus.Paid, OrderAction.Cancel)] = OrderStatus.Cancelled,
    };

    public static TheoryData<OrderStatus, OrderAction> EveryPair => new(AllPairs());

    public static TheoryData<OrderStatus, OrderAction> LegalPairs => new(AllPairs().Where(Legal.ContainsKey));

    public static TheoryData<OrderStatus, OrderAction> IllegalPairs => new(AllPairs().Where(pair => !Legal.ContainsKey(pair)));

    [Theory]
    [MemberData(nameof(EveryPair))]
    public void IsAllowed_matches_the_workflow_table_for_every_status_and_action(OrderStatus from, OrderAction action) =>
        Transitions.IsAllowed(from, action).ShouldBe(Legal.ContainsKey((from, action)));

    [Theory]
    [MemberData(nameof(EveryPair))]
    public void AllowedFrom_lists_exactly_the_legal_source_statuses(OrderStatus from, OrderAction action) =>
        Transitions.AllowedFrom(action).Contains(from).ShouldBe(Legal.ContainsKey((from, action)));

    [Theory]
    [MemberData(nameof(EveryPair))]
    public void Decide_without_If_Match_follows_the_table(OrderStatus from, OrderAction action) =>
        Transitions.Decide(from, 3, action, expectedVersion: null)
            .ShouldBe(Legal.ContainsKey((from, action)) ? TransitionVerdict.Allowed : TransitionVerdict.IllegalFromStatus);

    [Theory]
    [MemberData(nameof(EveryPair))]
    public void Decide_with_the_current_version_follows_the_table(OrderStatus from, OrderAction action) =>
        Transitions.Decide(from, 3, action, expectedVersion: 3)
            .ShouldBe(Legal.ContainsKey((from, action)) ? TransitionVerdict.Allowed : TransitionVerdict.IllegalFromStatus);

    [Theory]
    [MemberData(nameof(EveryPair))]
    public void Decide_with_a_stale_version_is_StaleVersion_whatever_the_status(OrderStatus from, OrderAction action)
    {
        Transitions.Decide(from, 3, action, expectedVersion: 2).ShouldBe(TransitionVerdict.StaleVersion);
        Transitions.Decide(from, 3, action, expectedVersion: 4).ShouldBe(TransitionVerdict.StaleVersion);
    }

    [Theory]
    [InlineData(OrderAction.Pay, OrderStatus.Paid, "Paid")]
    [InlineData(OrderAction.Ship, OrderStatus.Shipped, "Shipped")]
    [InlineData(OrderAction.Complete, OrderStatus.Completed, "Completed")]
    [InlineData(OrderAction.Cancel, OrderStatus.Cancelled, "Cancelled")]
    public void Each_action_reaches_its_status_and_names_its_event_after_it(OrderAction action, OrderStatus target, string eventType)
    {
        Transitions.Target(action).ShouldBe(target);
        Transitions.EventType(action).ShouldBe(eventType);
    }

    [Fact]
    public void Create_makes_version_1_with_one_Created_event_carrying_the_total()
    {
        var id = Guid.CreateVersion7();
        OrderLine[] lines = [new("A", 2, 19.99m), new("B", 3, 0.01m)];

        var order = Transitions.Create(id, "cust-1", lines, T0);

        order.Id.ShouldBe(id);
        order.CustomerId.ShouldBe("cust-1");
        order.Status.ShouldBe(OrderStatus.Created);
        order.Version.ShouldBe(1);
        order.Total.ShouldBe(40.01m);
        order.Lines.ShouldBe(lines);
        order.CreatedAt.ShouldBe(T0);
        order.UpdatedAt.ShouldBe(T0);
        order.Events.ShouldHaveSingleItem().ShouldBe(new OrderEvent(1, Transitions.CreatedEventType, T0, new OrderEventData(Total: 40.01m)));
    }

    [Fact]
    public void Total_is_the_exact_decimal_sum_of_quantity_times_unit_price() =>
        Transitions.Total([new("A", 1000, 1_000_000m), new("B", 3, 0.1m), new("C", 7, 333333.33m)])
            .ShouldBe(1_000_000_000m + 0.3m + 2_333_333.31m);

    [Theory]
    [MemberData(nameof(LegalPairs))]
    public void Apply_of_a_legal_step_bumps_the_version_and_appends_the_event_with_that_sequence(OrderStatus from, OrderAction action)
    {
        var target = Legal[(from, action)];
        var before = OrderAt(from);
        var at = before.UpdatedAt.AddMinutes(5);
        var data = new OrderEventData(PaymentReference: "P", Reason: "R");

        var after = Transitions.Apply(before, action, at, data);

        after.Status.ShouldBe(target);
        after.Version.ShouldBe(before.Version + 1);
        after.UpdatedAt.ShouldBe(at);
        after.CreatedAt.ShouldBe(before.CreatedAt);
        after.Lines.ShouldBe(before.Lines);
        after.Total.ShouldBe(before.Total);
        after.Events.Count.ShouldBe(before.Events.Count + 1);
        after.Events.Take(before.Events.Count).ShouldBe(before.Events);
        after.Events[^1].ShouldBe(new OrderEvent(after.Version, target.ToString(), at, data));
        after.Events.Select(e => e.Sequence).ShouldBe(Enumerable.Range(1, after.Version));
    }

    [Theory]
    [MemberData(nameof(IllegalPairs))]
    public void Apply_of_an_illegal_step_throws_and_leaves_the_order_alone(OrderStatus from, OrderAction action)
    {
        var before = OrderAt(from);
        var eventsBefore = before.Events.ToArray();

        Should.Throw<InvalidOperationException>(() => Transitions.Apply(before, action, T0.AddHours(1), new OrderEventData()));
        before.Events.ShouldBe(eventsBefore);
    }

    [Fact]
    public void Apply_does_not_mutate_the_order_it_was_given()
    {
        var created = Transitions.Create(Guid.CreateVersion7(), "c", [new("A", 1, 1m)], T0);

        var paid = Transitions.Apply(created, OrderAction.Pay, T0.AddSeconds(1), new OrderEventData(PaymentReference: "P"));

        created.Status.ShouldBe(OrderStatus.Created);
        created.Version.ShouldBe(1);
        created.Events.Count.ShouldBe(1);
        paid.Events.Count.ShouldBe(2);
    }

    [Fact]
    public void The_happy_path_yields_events_1_to_4_in_workflow_order()
    {
        var order = OrderAt(OrderStatus.Completed);

        order.Version.ShouldBe(4);
        order.Events.Select(e => (e.Sequence, e.Type)).ShouldBe([(1, "Created"), (2, "Paid"), (3, "Shipped"), (4, "Completed")]);
    }

    [Fact]
    public void Timestamps_truncate_to_whole_microseconds_in_UTC()
    {
        var local = new DateTimeOffset(2025, 6, 1, 12, 0, 0, TimeSpan.FromHours(2)).AddTicks(1_234_567);

        var truncated = Timestamps.Truncate(local);

        truncated.Offset.ShouldBe(TimeSpan.Zero);
        truncated.UtcTicks.ShouldBe(local.UtcTicks - 7);
        (truncated.Ticks % 10).ShouldBe(0);
    }

    private static IEnumerable<(OrderStatus, OrderAction)> AllPairs() =>
        from status in Enum.GetValues<OrderStatus>() from action in Enum.GetValues<OrderAction>() select (status, action);

    /// <summary>An order that reached <paramref name="status"/> along the workflow, one minute per step.</summary>
    private static Order OrderAt(OrderStatus status)
    {
        var order = Transitions.Create(Guid.CreateVersion7(), "cust", [new("A", 2, 5m)], T0);
        OrderAction[] path = status switch
        {
            OrderStatus.Created => [],
            OrderStatus.Paid => [OrderAction.Pay],
            OrderStatus.Shipped => [OrderAction.Pay, OrderAction.Ship],
            OrderStatus.Completed => [OrderAction.Pay, OrderAction.Ship, OrderAction.Complete],
            OrderStatus.Cancelled => [OrderAction.Cancel],
            _ => throw new ArgumentOutOfRangeException(nameof(status)),
        };
        foreach (var action in path)
        {
            order = Transitions.Apply(order, action, order.UpdatedAt.AddMinutes(1), new OrderEventData());
        }

        return order;
    }
}
