using System.Globalization;

namespace OrderService.Load.Shootout;

/// <summary>
/// A process's CPU time (user + system, all threads) from /proc/&lt;pid&gt;/stat: the service's own cost over a
/// measured window, apart from the load driver's and the database's on the same cores. Linux only; elsewhere null.
/// </summary>
public static class ProcessCpu
{
    /// <summary>USER_HZ: the unit of utime/stime. 100 on every Linux ABI .NET runs on (sysconf(_SC_CLK_TCK)).</summary>
    internal const long TicksPerSecond = 100;

    /// <summary>User + system CPU time of <paramref name="pid"/> so far, or null when /proc cannot tell (not Linux, the process is gone).</summary>
    public static TimeSpan? Of(int pid) => Read(pid) is { } stat ? Time(stat.Ticks) : null;

    /// <summary>This process (the load driver).</summary>
    public static TimeSpan? OfSelf() => Of(Environment.ProcessId);

    /// <summary>
    /// The CPU time of this process's children that have ended and been waited for (cutime + cstime): how a tool the
    /// driver ran to completion, such as pgbench, is measured.
    /// </summary>
    public static TimeSpan? OfEndedChildrenOfSelf() => Read(Environment.ProcessId) is { } stat ? Time(stat.EndedChildTicks) : null;

    /// <summary>
    /// A server and the processes it started: <paramref name="rootPid"/>'s own CPU, its ended children's, and each live
    /// child's (with the children it ended). For PostgreSQL: the postmaster, every backend and background process, and
    /// the backends that have disconnected. Null when /proc cannot tell.
    /// </summary>
    public static TimeSpan? OfTree(int rootPid)
    {
        if (Read(rootPid) is not { } root)
        {
            return null;
        }

        var ticks = root.Ticks + root.EndedChildTicks;
        foreach (var folder in Directory.EnumerateDirectories("/proc"))
        {
            if (int.TryParse(Path.GetFileName(folder), NumberStyles.None, CultureInfo.InvariantCulture, out var pid) && Read(pid) is { } child && child.ParentPid == rootPid)
            {
                ticks += child.Ticks + child.EndedChildTicks;
            }
        }

        return Time(ticks);
    }

    /// <summary>Milliseconds of CPU per workflow between two readings, or null when either is missing.</summary>
    public static double? MillisecondsPerWorkflow(TimeSpan? before, TimeSpan? after, long workflows) =>
        before is { } b && after is { } a && workflows > 0 ? Math.Round((a - b).TotalMilliseconds / workflows, 4) : null;

    // In whole TimeSpan ticks, so that sums of readings compare exactly (no double rounding).
    private static TimeSpan Time(long ticks) => TimeSpan.FromTicks(ticks * (TimeSpan.TicksPerSecond / TicksPerSecond));

    /// <summary>/proc/&lt;pid&gt;/stat, as <see cref="ReadStat"/> reads it.</summary>
    internal static Stat? Read(int pid) => ReadStat($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/stat");

    /// <summary>
    /// One /proc/&lt;pid&gt;/stat or /proc/&lt;pid&gt;/task/&lt;tid&gt;/stat: the name, the parent, the CPU ticks (user + system)
    /// and those of the ended children; null when it cannot be read (the process or thread is gone).
    /// </summary>
    internal static Stat? ReadStat(string path)
    {
        try
        {
            var stat = File.ReadAllText(path);

            // "123 (.NET TP Worker) S 1 ...": the name (field 2) is in parentheses and may hold spaces and parentheses,
            // so fields count from its last ')'. After it: state (3), ppid (4), ..., utime (14), stime (15), cutime (16), cstime (17).
            var close = stat.LastIndexOf(')');
            var fields = stat[(close + 2)..].Split(' ');
            long Field(int index) => long.Parse(fields[index], CultureInfo.InvariantCulture);
            return new Stat(stat[(stat.IndexOf('(', StringComparison.Ordinal) + 1)..close], (int)Field(1), Field(11) + Field(12), Field(13) + Field(14));
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException or ArgumentOutOfRangeException)
        {
            return null;
        }
    }

    internal readonly record struct Stat(string Name, int ParentPid, long Ticks, long EndedChildTicks);
}
