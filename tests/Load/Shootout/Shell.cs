using System.Diagnostics;
using CliWrap;
using System.Text;

namespace OrderService.Load.Shootout;

/// <summary>Small process helpers: run a tool to completion, find a free port, kill a process tree hard.</summary>
public static class Shell
{
    public sealed record Result(int ExitCode, string Output)
    {
        public Result EnsureSuccess(string what) =>
            ExitCode == 0 ? this : throw new InvalidOperationException($"{what} failed with exit code {ExitCode}:\n{Output}");
    }

    public static bool IsRoot => Environment.UserName == "root";

    /// <summary>Runs a program and captures stdout and stderr together, line by line as they come.</summary>
    public static async Task<Result> RunAsync(string fileName, IEnumerable<string> arguments, TimeSpan timeout,
        IReadOnlyDictionary<string, string>? environment = null, string? workingDirectory = null)
    {
        var output = new StringBuilder();
        var lines = PipeTarget.ToDelegate(line => Append(output, line));
        var command = Cli.Wrap(fileName)
            .WithArguments(arguments)
            .WithEnvironmentVariables((environment ?? new Dictionary<string, string>()).ToDictionary(p => p.Key, p => (string?)p.Value))
            .WithWorkingDirectory(workingDirectory ?? Environment.CurrentDirectory)
            .WithStandardOutputPipe(lines)
            .WithStandardErrorPipe(lines)
            .WithValidation(CommandResultValidation.None);
        using var timer = new CancellationTokenSource(timeout);
        try
        {
            // A cancelled CliWrap command kills the process (and its children) before the task ends.
            var result = await command.ExecuteAsync(timer.Token).ConfigureAwait(false);
            lock (output)
            {
                return new Result(result.ExitCode, output.ToString());
            }
        }
        catch (OperationCanceledException) when (timer.IsCancellationRequested)
        {
            throw new TimeoutException($"{fileName} {command.Arguments} did not finish within {timeout}.");
        }
    }

    /// <summary>Runs a PostgreSQL tool as the postgres user when we are root (the server refuses to run as root).</summary>
    public static Task<Result> RunAsPostgresAsync(string fileName, IEnumerable<string> arguments, TimeSpan timeout) =>
        IsRoot
            ? RunAsync("runuser", ["-u", "postgres", "--", fileName, .. arguments], timeout)
            : RunAsync(fileName, arguments, timeout);

    /// <summary>
    /// SIGKILLs a process and every descendant (found through /proc), parent first so it cannot
    /// respawn children: the nearest thing to pulling the plug on one program.
    /// </summary>
    public static void KillTreeHard(int pid)
    {
        var victims = new List<int> { pid };
        victims.AddRange(Descendants(pid));
        foreach (var victim in victims)
        {
            try
            {
                using var process = Process.GetProcessById(victim);
                process.Kill();
            }
            catch (ArgumentException)
            {
                // Already gone.
            }
            catch (InvalidOperationException)
            {
                // Exited between listing and killing.
            }
        }

        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (victims.Any(IsAlive) && DateTime.UtcNow < deadline)
        {
            Thread.Sleep(20);
        }
    }

    public static bool IsAlive(int pid) => File.Exists($"/proc/{pid}/stat") && !IsZombie(pid);

    /// <summary>
    /// Waits until <paramref name="pid"/> has left the process table (reaped, not only a zombie), or the time is up.
    /// A killed daemon's parent is PID 1, which reaps it about a second later; until then kill -0 still finds it.
    /// </summary>
    public static async Task WaitUntilReapedAsync(int pid, TimeSpan timeout)
    {
        var deadline = DateTime.UtcNow + timeout;
        while (File.Exists($"/proc/{pid}/stat") && DateTime.UtcNow < deadline)
        {
            await Task.Delay(20).ConfigureAwait(false);
        }
    }

    private static bool IsZombie(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid}/stat");
            return stat[(stat.LastIndexOf(')') + 2)..].StartsWith('Z');
        }
        catch (IOException)
        {
            return false;
        }
    }

    private static IEnumerable<int> Descendants(int root)
    {
        var parents = new Dictionary<int, int>();
        foreach (var directory in Directory.EnumerateDirectories("/proc"))
        {
            if (!int.TryParse(Path.GetFileName(directory), out var pid))
            {
                continue;
            }

            try
            {
                var stat = File.ReadAllText(Path.Combine(directory, "stat"));
                var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
                parents[pid] = int.Parse(fields[1], System.Globalization.CultureInfo.InvariantCulture);
            }
            catch (IOException)
            {
                // The process exited while we listed it.
            }
        }

        var found = new List<int>();
        var frontier = new Queue<int>([root]);
        while (frontier.TryDequeue(out var parent))
        {
            foreach (var (child, _) in parents.Where(p => p.Value == parent))
            {
                found.Add(child);
                frontier.Enqueue(child);
            }
        }

        return found;
    }

    private static void Append(StringBuilder output, string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (output)
        {
            output.AppendLine(line);
        }
    }
}
