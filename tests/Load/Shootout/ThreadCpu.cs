using System.Globalization;

namespace OrderService.Load.Shootout;

/// <summary>
/// Where a process's CPU went, thread by thread (/proc/&lt;pid&gt;/task/&lt;tid&gt;/stat), grouped by the names .NET
/// gives its threads: request work on the thread pool, the socket engine, the GC, the tiered JIT, the SQLite store's
/// writer. One figure per process cannot tell a slower request path from a JIT still compiling or a GC working harder;
/// this can. Linux only; elsewhere null.
/// </summary>
public static class ThreadCpu
{
    public const string ThreadPool = "thread pool";
    public const string Sockets = "sockets";
    public const string Gc = "GC";
    public const string Jit = "JIT";
    public const string StoreWriter = "store writer";
    public const string Other = "other";

    /// <summary>CPU of threads that ended within the window: the process's total minus what its live threads account for.</summary>
    public const string Ended = "ended threads";

    /// <summary>The kinds in the order the report shows them.</summary>
    public static readonly IReadOnlyList<string> Kinds = [ThreadPool, Sockets, Gc, Jit, StoreWriter, Other, Ended];

    private const double TicksPerMillisecond = ProcessCpu.TicksPerSecond / 1000.0;

    /// <summary>One reading: each live thread's name and CPU ticks, and the whole process's (ended threads included).</summary>
    public sealed record Snapshot(IReadOnlyDictionary<int, (string Name, long Ticks)> Threads, long ProcessTicks);

    /// <summary>
    /// What kind of work a thread does, from its name as /proc shows it (the first 15 bytes of the name .NET gives it:
    /// ".NET TP Worker", ".NET Sockets", ".NET Server GC", ".NET BGC", ".NET Tiered Com…"; the SQLite store names its
    /// writer "sqlite-group-commit").
    /// </summary>
    public static string KindOf(string threadName) => threadName switch
    {
        _ when threadName.StartsWith(".NET TP ", StringComparison.Ordinal) => ThreadPool,
        _ when threadName.StartsWith(".NET Sockets", StringComparison.Ordinal) => Sockets,
        _ when threadName.StartsWith(".NET Server GC", StringComparison.Ordinal) || threadName.StartsWith(".NET BGC", StringComparison.Ordinal)
            || threadName.StartsWith(".NET Finalizer", StringComparison.Ordinal) => Gc,
        _ when threadName.StartsWith(".NET Tiered", StringComparison.Ordinal) => Jit,
        _ when threadName.StartsWith("sqlite-group-co", StringComparison.Ordinal) => StoreWriter,
        _ => Other,
    };

    /// <summary>Every thread of <paramref name="pid"/> now, or null when /proc cannot tell (not Linux, the process is gone).</summary>
    public static Snapshot? Of(int pid)
    {
        var process = ProcessCpu.Read(pid);
        var taskFolder = $"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/task";
        if (process is null || !Directory.Exists(taskFolder))
        {
            return null;
        }

        var threads = new Dictionary<int, (string, long)>();
        try
        {
            foreach (var folder in Directory.EnumerateDirectories(taskFolder))
            {
                // A thread that ended between the listing and the read is skipped: its CPU shows up under Ended.
                if (int.TryParse(Path.GetFileName(folder), NumberStyles.None, CultureInfo.InvariantCulture, out var tid) && ProcessCpu.ReadStat(Path.Combine(folder, "stat")) is { } thread)
                {
                    threads[tid] = (thread.Name, thread.Ticks);
                }
            }
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException)
        {
            return null;
        }

        return new Snapshot(threads, process.Value.Ticks);
    }

    /// <summary>
    /// Milliseconds of CPU per workflow by kind between two readings of one process, every kind present (0 when none
    /// ran); null when either reading is missing. A thread born in the window counts from zero; a thread that ended in
    /// it counts under <see cref="Ended"/>, as the process's total minus the rest.
    /// </summary>
    public static Dictionary<string, double>? MillisecondsPerWorkflow(Snapshot? before, Snapshot? after, long workflows)
    {
        if (before is null || after is null || workflows <= 0)
        {
            return null;
        }

        var ticks = Kinds.ToDictionary(kind => kind, _ => 0L);
        foreach (var (tid, (name, now)) in after.Threads)
        {
            var then = before.Threads.TryGetValue(tid, out var earlier) ? earlier.Ticks : 0;
            ticks[KindOf(name)] += now - then;
        }

        ticks[Ended] = Math.Max(0, after.ProcessTicks - before.ProcessTicks - ticks.Values.Sum());
        return ticks.ToDictionary(pair => pair.Key, pair => Math.Round(pair.Value / TicksPerMillisecond / workflows, 4));
    }
}
