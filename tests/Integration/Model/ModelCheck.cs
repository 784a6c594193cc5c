using System.Diagnostics;
using System.Globalization;
using System.Text;
using CsCheck;
using OrderService.Data.Orders;
using Xunit;

namespace OrderService.Integration.Tests.Model;

/// <summary>
/// The property: for every generated command sequence, the HTTP run and the port run answer every command
/// exactly as the model predicts (outcome, status, version, event list), and every slot ends as predicted.
/// <para>
/// Cases are reproducible: case i is generated from CsCheck's PCG seeded with <see cref="Seed"/> + i, and the
/// seed is printed. A failure is shrunk by deleting commands (halves, then smaller chunks, then single
/// commands) and by simplifying the rest (no key, no If-Match, no data), re-running each candidate on fresh
/// orders and keys, until no deletion or simplification still fails: a 1-minimal sequence. (CsCheck's own
/// shrinking keeps sampling for smaller failing cases, which needs far more runs than the few dozen this
/// bounded budget allows against a real database.)
/// </para>
/// </summary>
public sealed class ModelCheck(string storeName, Func<ICommandRunner> http, Func<ICommandRunner> port, Func<OrderStatus, int, OrderAction, int?, TransitionVerdict>? decide = null)
{
    public const string IterationsVariable = "ORDERS_TEST_MODEL_ITERATIONS";
    public const string SeedVariable = "ORDERS_TEST_MODEL_SEED";
    private const int MaxShrinkRuns = 400;

    public static int Iterations => int.TryParse(Environment.GetEnvironmentVariable(IterationsVariable), CultureInfo.InvariantCulture, out var n) && n > 0 ? n : 30;

    public static ulong Seed => ulong.TryParse(Environment.GetEnvironmentVariable(SeedVariable), CultureInfo.InvariantCulture, out var s) ? s : 20261124;

    /// <summary>Runs the bounded property; on failure returns the report of the shrunk sequence (null when every case agreed).</summary>
    public async Task<ModelFailure?> CheckAsync(int iterations, ulong seed)
    {
        var clock = Stopwatch.StartNew();
        var commands = 0;
        var outcomes = new SortedDictionary<string, int>(StringComparer.Ordinal);
        for (var i = 0; i < iterations; i++)
        {
            var sequence = CommandGenerators.Sequence.Generate(new PCG(0, seed + (ulong)i), null, out _);
            commands += sequence.Count;
            var report = await RunAsync(sequence);
            if (report.Failed)
            {
                var (shrunk, runs) = await ShrinkAsync(sequence, report);
                return new ModelFailure(storeName, seed, i, sequence.Count, shrunk, runs);
            }

            foreach (var step in report.Steps.Where(s => !s.FinalCheck))
            {
                outcomes[step.Model.Outcome] = outcomes.GetValueOrDefault(step.Model.Outcome) + 1;
            }
        }

        TestContext.Current.TestOutputHelper?.WriteLine(
            $"{storeName}: {iterations} sequences, {commands} commands, each through HTTP and the port, agreed with the model in {clock.Elapsed.TotalSeconds:F1} s ({SeedVariable}={seed}, {IterationsVariable}={iterations}); outcomes: {string.Join(", ", outcomes.Select(o => $"{o.Key} x{o.Value}"))}");
        return null;
    }

    /// <summary>Runs one sequence, then a GET of every slot, stopping at the first disagreement.</summary>
    public async Task<RunReport> RunAsync(IReadOnlyList<Command> sequence)
    {
        var model = new OrderModel(decide);
        var (overHttp, overPort) = (http(), port());
        var steps = new List<StepReport>();
        var finalGets = Enumerable.Range(0, CommandGenerators.Slots).Select(slot => (Command)new GetCommand(slot));
        foreach (var (command, index) in sequence.Concat(finalGets).Select((c, i) => (c, i)))
        {
            var step = new StepReport(command, index >= sequence.Count, model.Apply(command), await overHttp.RunAsync(command), await overPort.RunAsync(command));
            steps.Add(step);
            if (!step.Agrees)
            {
                return new RunReport(steps, true);
            }
        }

        return new RunReport(steps, false);
    }

    private async Task<(RunReport Report, int Runs)> ShrinkAsync(IReadOnlyList<Command> failing, RunReport report)
    {
        var runs = 0;
        var current = failing.ToList();
        async Task<bool> TryAsync(List<Command> candidate)
        {
            if (candidate.Count == 0 || runs >= MaxShrinkRuns)
            {
                return false;
            }

            runs++;
            var attempt = await RunAsync(candidate);
            if (!attempt.Failed)
            {
                return false;
            }

            (current, report) = (candidate, attempt);
            return true;
        }

        for (var progress = true; progress && runs < MaxShrinkRuns;)
        {
            progress = false;
            for (var chunk = Math.Max(1, current.Count / 2); chunk >= 1; chunk /= 2)
            {
                for (var start = 0; start < current.Count;)
                {
                    if (await TryAsync([.. current.Take(start), .. current.Skip(start + chunk)]))
                    {
                        progress = true;
                    }
                    else
                    {
                        start += chunk;
                    }
                }
            }

            // Renumber orders downwards (swap #s and #s-1 everywhere), so the creates of lower slots become deletable.
            for (var slot = 1; slot < CommandGenerators.Slots; slot++)
            {
                if (current.Any(c => SlotOf(c) == slot) && await TryAsync(current.Select(c => SwapSlots(c, slot, slot - 1)).ToList()))
                {
                    progress = true;
                }
            }

            for (var i = 0; i < current.Count; i++)
            {
                foreach (var simpler in Simplify(current[i]))
                {
                    if (await TryAsync([.. current.Take(i), simpler, .. current.Skip(i + 1)]))
                    {
                        progress = true;
                        break;
                    }
                }
            }
        }

        return (report, runs);
    }

    private static int? SlotOf(Command command) => command switch
    {
        StepCommand step => step.Slot,
        GetCommand get => get.Slot,
        _ => null,
    };

    private static Command SwapSlots(Command command, int a, int b)
    {
        int Swap(int slot) => slot == a ? b : slot == b ? a : slot;
        return command switch
        {
            StepCommand step => step with { Slot = Swap(step.Slot) },
            GetCommand get => get with { Slot = Swap(get.Slot) },
            _ => command,
        };
    }

    private static IEnumerable<Command> Simplify(Command command) => command switch
    {
        CreateCommand { Key: not null } create => [create with { Key = null }],
        CreateCommand { Body: not 0 } create => [create with { Body = 0 }],
        StepCommand step => new[]
        {
            step with { Key = null },
            step with { IfMatch = IfMatchKind.None },
            step with { Data = 0 },
            step with { Slot = 0 },
        }.Where(s => s != step),
        _ => [],
    };
}

public sealed record StepReport(Command Command, bool FinalCheck, Observation Model, Observation Http, Observation Port)
{
    public bool Agrees => Http == Model && Port == Model;
}

public sealed record RunReport(IReadOnlyList<StepReport> Steps, bool Failed);

/// <summary>A shrunk counterexample, printed as the numbered requests with what the model, HTTP and the port answered.</summary>
public sealed record ModelFailure(string StoreName, ulong Seed, int Case, int OriginalLength, RunReport Report, int ShrinkRuns)
{
    public int ShrunkLength => Report.Steps.Count(s => !s.FinalCheck);

    public override string ToString()
    {
        var text = new StringBuilder()
            .AppendLine(CultureInfo.InvariantCulture, $"The model and {StoreName} disagree. Case {Case} of seed {Seed} ({ModelCheck.SeedVariable}={Seed}),")
            .AppendLine(CultureInfo.InvariantCulture, $"shrunk from {OriginalLength} to {ShrunkLength} commands in {ShrinkRuns} re-runs (#n is the n-th order the sequence created):");
        foreach (var (step, number) in Report.Steps.Select((s, i) => (s, i + 1)))
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"{number,3}. {step.Command}{(step.FinalCheck ? "   (final check)" : "")}{(step.Agrees ? "" : "   <-- disagree")}")
                .AppendLine(CultureInfo.InvariantCulture, $"       model: {step.Model}")
                .AppendLine(CultureInfo.InvariantCulture, $"       http : {step.Http}")
                .AppendLine(CultureInfo.InvariantCulture, $"       port : {step.Port}");
        }

        return text.ToString();
    }
}
