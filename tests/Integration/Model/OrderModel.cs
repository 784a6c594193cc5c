using OrderService.Data.Orders;

namespace OrderService.Integration.Tests.Model;

/// <summary>
/// The oracle: predicts every command's observation from the pure workflow rules of
/// <see cref="Transitions"/> (legality, stale versus illegal, the event each step appends) plus a small model of
/// what the rules leave to the stores: versions, the history a replay answers from, and the one key namespace
/// shared by creates and transitions (docs/high-availability.md, "Which steps a client may retry after a 503").
/// </summary>
public sealed class OrderModel
{
    private readonly List<ModelOrder> _orders = [];
    private readonly Dictionary<int, KeyUse> _keys = [];
    private readonly Func<OrderStatus, int, OrderAction, int?, TransitionVerdict> _decide;

    /// <param name="decide">The rule under test; <see cref="Transitions.Decide"/> unless a test breaks it on purpose.</param>
    public OrderModel(Func<OrderStatus, int, OrderAction, int?, TransitionVerdict>? decide = null) => _decide = decide ?? Transitions.Decide;

    /// <summary>The slots created so far: the runners check each one's final state.</summary>
    public int OrderCount => _orders.Count;

    /// <summary>The status of the slot's order, or null when the slot has no order yet.</summary>
    public OrderStatus? StatusOf(int slot) => slot < _orders.Count ? _orders[slot].Status : null;

    public Observation Apply(Command command) => command switch
    {
        CreateCommand create => Create(create),
        StepCommand step => Step(step),
        GetCommand get => get.Slot < _orders.Count ? new Observation("200", _orders[get.Slot].Describe()) : new Observation("404"),
        _ => throw new ArgumentOutOfRangeException(nameof(command), command, null),
    };

    private Observation Create(CreateCommand create)
    {
        var request = $"create B{create.Body}";
        if (create.Key is { } key && _keys.TryGetValue(key, out var use))
        {
            // A replay answers the order as its creation left it, whatever happened to it since.
            return use.Request == request ? new Observation("201 replayed", _orders[use.Slot].DescribeAt(1)) : new Observation("422");
        }

        var order = new ModelOrder();
        _orders.Add(order);
        if (create.Key is { } newKey)
        {
            _keys[newKey] = new KeyUse(request, _orders.Count - 1, 1);
        }

        return new Observation("201", order.Describe());
    }

    private Observation Step(StepCommand step)
    {
        // The request hash covers the order, the step and its data, never If-Match.
        var request = $"{step.Action} #{step.Slot} D{step.Data}";
        if (step.Key is { } key && _keys.TryGetValue(key, out var use))
        {
            return use.Request == request ? new Observation("200 replayed", _orders[use.Slot].DescribeAt(use.Version)) : new Observation("422");
        }

        if (step.Slot >= _orders.Count)
        {
            return new Observation("404");
        }

        var order = _orders[step.Slot];
        var expected = Variants.ExpectedVersion(step.IfMatch, order.Version);
        switch (_decide(order.Status, order.Version, step.Action, expected))
        {
            case TransitionVerdict.StaleVersion:
                return new Observation("409 stale");
            case TransitionVerdict.IllegalFromStatus:
                return new Observation("409 illegal");
        }

        order.Apply(step.Action, step.Data);
        if (step.Key is { } newKey)
        {
            _keys[newKey] = new KeyUse(request, step.Slot, order.Version);
        }

        return new Observation("200", order.Describe());
    }

    private sealed record KeyUse(string Request, int Slot, int Version);

    /// <summary>One order: its status and events; the version is the number of events.</summary>
    private sealed class ModelOrder
    {
        private readonly List<(OrderStatus Status, string Event)> _history = [(OrderStatus.Created, Observation.DescribeEvent(1, Transitions.CreatedEventType, null, null, null, null))];

        public OrderStatus Status => _history[^1].Status;

        public int Version => _history.Count;

        public void Apply(OrderAction action, int data)
        {
            var sequence = Version + 1;
            var text = action switch
            {
                OrderAction.Pay => Observation.DescribeEvent(sequence, Transitions.EventType(action), Variants.PaymentReference(data), null, null, null),
                OrderAction.Ship => Observation.DescribeEvent(sequence, Transitions.EventType(action), null, Variants.Carrier, Variants.TrackingNumber(data), null),
                OrderAction.Cancel => Observation.DescribeEvent(sequence, Transitions.EventType(action), null, null, null, Variants.Reason(data)),
                _ => Observation.DescribeEvent(sequence, Transitions.EventType(action), null, null, null, null),
            };
            _history.Add((Transitions.Target(action), text));
        }

        public string Describe() => DescribeAt(Version);

        /// <summary>The order as the step that produced <paramref name="version"/> left it (what a replay answers).</summary>
        public string DescribeAt(int version) =>
            Observation.DescribeOrder(_history[version - 1].Status.ToString(), version, _history.Take(version).Select(h => h.Event));
    }
}
