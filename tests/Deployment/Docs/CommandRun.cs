using System.Text.RegularExpressions;
using CliWrap;
using CliWrap.Buffered;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// A documented command in the form the test run can afford: the built program with the documented arguments and
/// environment, plus the switch that stops it before the slow part (--plan-only, --check-config, --list flat, -list).
/// It passes when the program exits 0 and its output matches <see cref="Expected"/>.
/// </summary>
internal sealed partial record CommandRun(
    string Kind,
    string Where,
    string Program,
    IReadOnlyList<string> Arguments,
    IReadOnlyDictionary<string, string> Environment,
    string WorkingDirectory,
    Regex Expected)
{
    private static readonly TimeSpan TimeLimit = TimeSpan.FromMinutes(2);

    /// <summary>Null when the command did what its documented form promises, else one line that says what went wrong.</summary>
    public async Task<string?> ProblemAsync(CancellationToken cancellationToken)
    {
        if (Arguments.Count > 0 && Arguments[0] is var dll && dll.EndsWith(".dll", StringComparison.Ordinal) && !File.Exists(dll))
        {
            return $"{Where}: {dll} is not built (scripts/test.sh builds every test project; building tests/Deployment builds Load and the benchmarks)";
        }

        var command = Cli.Wrap(Program)
            .WithArguments(Arguments)
            .WithWorkingDirectory(WorkingDirectory)
            .WithEnvironmentVariables(Environment.ToDictionary(v => v.Key, v => (string?)v.Value))
            .WithValidation(CommandResultValidation.None);
        using var limit = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        limit.CancelAfter(TimeLimit);
        BufferedCommandResult result;
        try
        {
            result = await command.ExecuteBufferedAsync(limit.Token);
        }
        catch (OperationCanceledException) when (!cancellationToken.IsCancellationRequested)
        {
            return $"{Where}: ran {Kind} for more than {TimeLimit.TotalMinutes:F0} min, so it was stopped";
        }

        var (printed, errors) = (Ansi().Replace(result.StandardOutput, ""), Ansi().Replace(result.StandardError, ""));
        if (result.ExitCode != 0)
        {
            return $"{Where}: {Kind} exited with {result.ExitCode}: {Gist(errors.Length > 0 ? errors : printed)}";
        }

        return Expected.IsMatch(printed) ? null : $"{Where}: {Kind} printed nothing that matches {Expected}: {Gist(printed + errors)}";
    }

    /// <summary>The first lines of what the program said, stack frames left out, on one line: the error without the whole log.</summary>
    private static string Gist(string said) => string.Join(" | ", said.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
        .Where(line => !line.StartsWith("at ", StringComparison.Ordinal) && !line.StartsWith("--- ", StringComparison.Ordinal)).Take(4));

    [GeneratedRegex(@"\x1b\[[0-9;]*m")]
    private static partial Regex Ansi();
}
