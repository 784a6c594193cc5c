using System.Diagnostics;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// Every documented command that can run in the test run, runs: the shoot-out with --plan-only (the real command line
/// and options, no service, no database), the service with --check-config (the start-up check of every setting, no
/// store, no listening), --write-config-reference into a scratch file, benchmarks with --list flat, test assemblies
/// with -list tests (the runner's own filter must match a test), scripts with bash -n. A renamed flag, a misspelt
/// setting or a bad value then fails here. What does not run is counted by reason and stays name-checked by
/// <see cref="DocumentedCommandTests"/>: docker compose (no Docker engine here), dotnet build/test/publish (the test
/// run comes from that build), the benchmarks' measuring verbs, and scripts beside the repository that are absent.
/// Needs the whole solution built (scripts/test.sh builds it before running the tests).
/// </summary>
public sealed class DocumentedCommandRunTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    /// <summary>artifacts/bin, found from this assembly's folder (artifacts/bin/Deployment/release), wherever --artifacts-path put it.</summary>
    private static string Binaries => Path.GetFullPath(Path.Combine(AppContext.BaseDirectory, "..", ".."));

    [Fact]
    public async Task Every_runnable_command_in_README_and_docs_runs_in_its_checking_form()
    {
        using var scratch = new ScratchFolder();
        var runs = new CommandRuns(Repository.Root, Binaries, scratch.Path);
        foreach (var block in DocumentedCommands.Blocks(Repository.Root))
        {
            runs.Add(block);
        }

        runs.Problems.ShouldBeEmpty(string.Join('\n', runs.Problems));
        var clock = Stopwatch.StartNew();
        var problems = await RunAllAsync(runs.Runs);
        problems.ShouldBeEmpty(string.Join('\n', problems));

        // Each kind of run met real commands, so this test cannot pass by running nothing.
        foreach (var kind in CommandRuns.Kinds)
        {
            runs.Runs.Count(r => r.Kind == kind).ShouldBeGreaterThan(0, $"no documented command ran as a {kind}");
        }

        TestContext.Current.SendDiagnosticMessage($"{runs.Runs.Count} documented commands ran in {clock.Elapsed.TotalSeconds:F0} s; not run: " +
            string.Join("; ", runs.NotRun.Select(n => $"{n.Value} × {n.Key}")));
    }

    [Fact]
    public async Task A_renamed_flag_or_a_bad_value_fails_the_run_of_its_command()
    {
        using var scratch = new ScratchFolder();
        var broken = Path.Combine(scratch.Path, "broken.sh");
        await File.WriteAllTextAsync(broken, "if true; then\n  echo never closed\n", Ct);
        var runs = new CommandRuns(Repository.Root, Binaries, scratch.Path);
        runs.Add(new CodeBlock("example.md", 1, "bash", string.Join('\n',
            "dotnet run -c Release --project tests/Load -- --stores sqlite --workflow 10   # renamed: --workflows",
            "dotnet run -c Release --project tests/Load -- --stores sqlit",
            "dotnet run -c Release --project tests/Load -- --stores sqlite --variants v1-shared-uwo",
            "dotnet run -c Release --project tests/Load -- --stores sqlite --workflows ten",
            "Store__Provider=PostgreSq dotnet run --project src/OrderService --urls http://127.0.0.1:5000",
            "dotnet artifacts/bin/OrderService/release/OrderService.dll --Store:CommandTimeoutSeconds=0",
            "Store__Provider=PostgreSql ConnectionStrings__Orders=\"Hots=127.0.0.1\" dotnet run --project src/OrderService",
            "dotnet run -c Release --project tests/Benchmarks -- --filter '*NoSuchBenchmarks*'",
            "dotnet artifacts/bin/Integration/release/OrderService.Integration.Tests.dll -noLogo -class \"*NoSuchConformance\"",
            $"{broken}")));

        runs.Problems.ShouldBeEmpty(string.Join('\n', runs.Problems));
        var problems = await RunAllAsync(runs.Runs);

        problems.Count.ShouldBe(10, string.Join('\n', problems));
        problems.ShouldContain(p => p.Contains("--workflow 10", StringComparison.Ordinal) && p.Contains("--workflow", StringComparison.Ordinal) && p.Contains("exited with", StringComparison.Ordinal));
        problems.ShouldContain(p => p.Contains("Unknown store 'sqlit'", StringComparison.Ordinal));
        problems.ShouldContain(p => p.Contains("'v1-shared-uwo' names no variant", StringComparison.Ordinal));
        problems.ShouldContain(p => p.Contains("--workflows ten", StringComparison.Ordinal) && p.Contains("exited with", StringComparison.Ordinal));
        problems.ShouldContain(p => p.Contains("Store:Provider", StringComparison.Ordinal) && p.Contains("PostgreSq", StringComparison.Ordinal) && p.Contains("exited with 1", StringComparison.Ordinal));
        problems.ShouldContain(p => p.Contains("Store:CommandTimeoutSeconds", StringComparison.Ordinal) && p.Contains("exited with 1", StringComparison.Ordinal));
        problems.ShouldContain(p => p.Contains("ConnectionStrings:Orders", StringComparison.Ordinal) && p.Contains("exited with 1", StringComparison.Ordinal));
        problems.ShouldContain(p => p.Contains("NoSuchBenchmarks", StringComparison.Ordinal) && p.Contains("printed nothing that matches", StringComparison.Ordinal));
        problems.ShouldContain(p => p.Contains("NoSuchConformance", StringComparison.Ordinal) && p.Contains("printed nothing that matches", StringComparison.Ordinal));
        problems.ShouldContain(p => p.Contains("broken.sh", StringComparison.Ordinal) && p.Contains(CommandRuns.ScriptSyntax, StringComparison.Ordinal));
    }

    [Fact]
    public void A_placeholder_without_a_stand_in_is_reported_not_run_empty()
    {
        using var scratch = new ScratchFolder();
        var runs = new CommandRuns(Repository.Root, Binaries, scratch.Path);
        runs.Add(new CodeBlock("example.md", 1, "bash",
            "dotnet run -c Release --project tests/Load -- --stores sqlserver --sqlserver \"$conn\" --postgres \"$pg\" --out \"${TMPDIR:-/tmp}/x\""));

        runs.Problems.ShouldHaveSingleItem().ShouldEndWith("no stand-in for $pg (add one to CommandRuns.StandIns)");
        var run = runs.Runs.ShouldHaveSingleItem();
        run.Arguments.ShouldContain("/tmp/x");
        run.Arguments.ShouldContain(a => a.StartsWith("Server=127.0.0.1,1433;", StringComparison.Ordinal));
    }

    /// <summary>All at once, a few at a time: each is a process start of a second or two, most of it waiting on the JIT.</summary>
    private static async Task<List<string>> RunAllAsync(IReadOnlyList<CommandRun> runs)
    {
        var problems = new string?[runs.Count];
        await Parallel.ForEachAsync(Enumerable.Range(0, runs.Count), new ParallelOptions { MaxDegreeOfParallelism = Math.Max(2, Environment.ProcessorCount), CancellationToken = Ct },
            async (i, ct) => problems[i] = await runs[i].ProblemAsync(ct));
        return [.. problems.OfType<string>()];
    }

    private sealed class ScratchFolder : IDisposable
    {
        public string Path { get; } = Directory.CreateTempSubdirectory("orderservice-doc-runs-").FullName;

        public void Dispose() => Directory.Delete(Path, recursive: true);
    }
}
