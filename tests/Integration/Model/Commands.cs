using CsCheck;
using OrderService.Data.Orders;

namespace OrderService.Integration.Tests.Model;

/// <summary>How a generated transition sets If-Match: not at all, the order's current version, an old or future one, or *.</summary>
public enum IfMatchKind
{
    None,
    Right,
    Stale,
    Star,
}

/// <summary>
/// One generated request. Orders are named by slot (the n-th order the sequence created) and keys by a small
/// index, so a sequence stays meaningful when the shrinker deletes commands from it: a slot nobody created
/// is an order that does not exist (404), and a key index is a key that is fresh until first used.
/// </summary>
public abstract record Command
{
    /// <summary>The request as a line of a failure report.</summary>
    public abstract override string ToString();

    protected static string KeyText(int? key) => key is { } k ? $" Idempotency-Key=k{k}" : "";
}

/// <summary>POST /orders with body variant <see cref="Body"/> (0 or 1: different lines, so a different request hash).</summary>
public sealed record CreateCommand(int? Key, int Body) : Command
{
    public override string ToString() => $"POST /orders body=B{Body}{KeyText(Key)}";
}

/// <summary>POST /orders/#slot/{action} with event data variant <see cref="Data"/> (0: none, 1..2: a value).</summary>
public sealed record StepCommand(int Slot, OrderAction Action, IfMatchKind IfMatch, int? Key, int Data) : Command
{
    public override string ToString() =>
        $"POST /orders/#{Slot}/{Action.ToString().ToLowerInvariant()} data=D{Data}{(IfMatch == IfMatchKind.None ? "" : $" If-Match={IfMatch.ToString().ToLowerInvariant()}")}{KeyText(Key)}";
}

public sealed record GetCommand(int Slot) : Command
{
    public override string ToString() => $"GET /orders/#{Slot}";
}

/// <summary>The CsCheck generators of command sequences.</summary>
public static class CommandGenerators
{
    /// <summary>Slots 0..3: few enough orders that steps hit the same order often, one more than usually exists (404).</summary>
    public const int Slots = 4;

    /// <summary>Keys k0..k4: few enough that keys are reused (replays, and 422 for another request).</summary>
    public const int Keys = 5;

    public const int MaxLength = 25;

    private static readonly Gen<int?> Key = Gen.Frequency(
        (1, Gen.Const((int?)null)),
        (1, Gen.Int[0, Keys - 1].Select(k => (int?)k)));

    // Creates carry a key more often than steps: a keyed create replayed after its order moved on is the
    // case that shows whether a replay answers the order as its creation left it.
    private static readonly Gen<Command> Create =
        from key in Gen.Frequency((1, Gen.Const((int?)null)), (2, Gen.Int[0, Keys - 1].Select(k => (int?)k)))
        from body in Gen.Int[0, 1]
        select (Command)new CreateCommand(key, body);

    // Three steps in four ask for an action that is legal for the order at that point (see Materialize), so
    // orders get deep into the workflow and keyed steps apply; the rest ask for any action.
    // Low slots more often: most steps hit an order that exists, some the slot no create reached yet (404).
    private static readonly Gen<int> Slot = Gen.Frequency((4, Gen.Const(0)), (3, Gen.Const(1)), (2, Gen.Const(2)), (1, Gen.Const(3)));

    private static readonly Gen<Command> Step =
        from slot in Slot
        from action in Gen.Int[0, 3].Select(a => (OrderAction)a)
        from ifMatch in Gen.Int[0, 3].Select(i => (IfMatchKind)i)
        from key in Key
        from data in Gen.Int[0, 2]
        from legal in Gen.Frequency((3, Gen.Const(true)), (1, Gen.Const(false)))
        select legal ? new LegalStep(new StepCommand(slot, action, ifMatch, key, data)) : Normalized(new StepCommand(slot, action, ifMatch, key, data));

    /// <summary>A marker turned into a step whose action is legal for the slot's order when the sequence gets there.</summary>
    private sealed record LegalStep(StepCommand Step) : Command
    {
        public override string ToString() => $"legal {Step}";
    }

    private static Command Normalized(StepCommand step) => step.Action == OrderAction.Complete ? step with { Data = 0 } : step;

    private static readonly Gen<Command> Get = Slot.Select(slot => (Command)new GetCommand(slot));

    /// <summary>
    /// A marker turned into an exact copy of an earlier command of the sequence: a client's retry. Most retries
    /// repeat a request that carried a key (a replay, answered as of the step it repeats), the rest any request.
    /// </summary>
    private sealed record Repeat(int Back, Func<Command, bool> Eligible) : Command
    {
        public override string ToString() => $"repeat {Back}";
    }

    private static readonly Gen<Command> RepeatEarlier =
        from back in Gen.Int[0, MaxLength]
        from eligible in Gen.OneOf<Func<Command, bool>>(IsKeyedStep, IsKeyedStep, IsKeyedCreate, _ => true)
        select (Command)new Repeat(back, eligible);

    private static bool IsKeyedStep(Command command) => command is StepCommand { Key: not null };

    private static bool IsKeyedCreate(Command command) => command is CreateCommand { Key: not null };

    private static readonly Gen<Command> AnyCommand = Gen.Frequency(
        (3, Create),
        (8, Step),
        (1, Get),
        (3, RepeatEarlier));

    /// <summary>1..<see cref="MaxLength"/> commands; repeats become copies of an earlier command (dropped at the start).</summary>
    public static readonly Gen<IReadOnlyList<Command>> Sequence = AnyCommand.List[1, MaxLength].Select(Materialize);

    private static IReadOnlyList<Command> Materialize(List<Command> commands)
    {
        var result = new List<Command>(commands.Count);
        var model = new OrderModel();
        var applied = 0;
        foreach (var command in commands)
        {
            if (command is LegalStep { Step: var wanted })
            {
                // A legal step goes to an order that exists (when one does).
                var step = model.OrderCount > 0 && model.StatusOf(wanted.Slot) is null ? wanted with { Slot = wanted.Slot % model.OrderCount } : wanted;
                var legal = model.StatusOf(step.Slot) is { } status
                    ? Enum.GetValues<OrderAction>().Where(a => Transitions.IsAllowed(status, a)).ToArray()
                    : [];
                result.Add(Normalized(legal.Length == 0 ? step : step with { Action = legal[(int)step.Action % legal.Length] }));
            }
            else if (command is Repeat repeat)
            {
                var earlier = result.Any(repeat.Eligible) ? result.Where(repeat.Eligible).ToList() : result;
                if (earlier.Count > 0)
                {
                    result.Add(earlier[earlier.Count - 1 - (repeat.Back % earlier.Count)]);
                }
            }
            else
            {
                result.Add(command);
            }

            // The model follows the sequence as it is built, so the next legal step knows each order's status.
            while (applied < result.Count)
            {
                model.Apply(result[applied++]);
            }
        }

        return result.Count > 0 ? result : [new CreateCommand(null, 0)];
    }
}
