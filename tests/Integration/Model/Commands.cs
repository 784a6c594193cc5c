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

    private static readonly Gen<Command> Create =
        from key in Key
        from body in Gen.Int[0, 1]
        select (Command)new CreateCommand(key, body);

    private static readonly Gen<Command> Step =
        from slot in Gen.Int[0, Slots - 1]
        from action in Gen.Int[0, 3].Select(a => (OrderAction)a)
        from ifMatch in Gen.Int[0, 3].Select(i => (IfMatchKind)i)
        from key in Key
        from data in Gen.Int[0, 2]
        select (Command)new StepCommand(slot, action, ifMatch, key, action == OrderAction.Complete ? 0 : data);

    private static readonly Gen<Command> Get = Gen.Int[0, Slots - 1].Select(slot => (Command)new GetCommand(slot));

    /// <summary>A marker turned into an exact copy of an earlier command of the sequence: a client's retry.</summary>
    private sealed record Repeat(int Back) : Command
    {
        public override string ToString() => $"repeat {Back}";
    }

    private static readonly Gen<Command> RepeatEarlier = Gen.Int[0, MaxLength].Select(back => (Command)new Repeat(back));

    private static readonly Gen<Command> AnyCommand = Gen.Frequency(
        (3, Create),
        (8, Step),
        (1, Get),
        (2, RepeatEarlier));

    /// <summary>1..<see cref="MaxLength"/> commands; repeats become copies of an earlier command (dropped at the start).</summary>
    public static readonly Gen<IReadOnlyList<Command>> Sequence = AnyCommand.List[1, MaxLength].Select(Materialize);

    private static IReadOnlyList<Command> Materialize(List<Command> commands)
    {
        var result = new List<Command>(commands.Count);
        foreach (var command in commands)
        {
            if (command is Repeat repeat)
            {
                if (result.Count > 0)
                {
                    result.Add(result[result.Count - 1 - (repeat.Back % result.Count)]);
                }
            }
            else
            {
                result.Add(command);
            }
        }

        return result.Count > 0 ? result : [new CreateCommand(null, 0)];
    }
}
