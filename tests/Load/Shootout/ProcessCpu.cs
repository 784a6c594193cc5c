using System.Globalization;

namespace OrderService.Load.Shootout;

/// <summary>
/// A process's CPU time (user + system, all threads) from /proc/&lt;pid&gt;/stat: the service's own cost over a
/// measured window, apart from the load driver's and the database's on the same cores. Linux only; elsewhere null.
/// </summary>
public static class ProcessCpu
{
    // USER_HZ: the unit of utime/stime. 100 on every Linux ABI .NET runs on (sysconf(_SC_CLK_TCK)).
    private const long TicksPerSecond = 100;

    /// <summary>User + system CPU time of <paramref name="pid"/> so far, or null when /proc cannot tell (not Linux, the process is gone).</summary>
    public static TimeSpan? Of(int pid) => Read(pid) is { } stat ? Time(stat.Own) : null;

    /// <summary>This process (the load driver).</summary>
    public static TimeSpan? OfSelf() => Of(Environment.ProcessId);

    /// <summary>
    /// The CPU time of this process's children that have ended and been waited for (cutime + cstime): how a tool the
    /// driver ran to completion, such as pgbench, is measured.
    /// </summary>
    public static TimeSpan? OfEndedChildrenOfSelf() => Read(Environment.ProcessId) is { } stat ? Time(stat.EndedChildren) : null;

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

        var ticks = root.Own + root.EndedChildren;
        foreach (var folder in Directory.EnumerateDirectories("/proc"))
        {
            if (int.TryParse(Path.GetFileName(folder), NumberStyles.None, CultureInfo.InvariantCulture, out var pid) && Read(pid) is { } child && child.ParentPid == rootPid)
            {
                ticks += child.Own + child.EndedChildren;
            }
        }

        return Time(ticks);
    }

    /// <summary>Milliseconds of CPU per workflow between two readings, or null when either is missing.</summary>
    public static double? MillisecondsPerWorkflow(TimeSpan? before, TimeSpan? after, long workflows) =>
        before is { } b && after is { } a && workflows > 0 ? Math.Round((a - b).TotalMilliseconds / workflows, 4) : null;

    // In whole TimeSpan ticks, so that sums of readings compare exactly (no double rounding).
    private static TimeSpan Time(long ticks) => TimeSpan.FromTicks(ticks * (TimeSpan.TicksPerSecond / TicksPerSecond));

    private static (int ParentPid, long Own, long EndedChildren)? Read(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/stat");

            // The command name (field 2) is in parentheses and may hold spaces: count fields after its last ')'.
            // After it: state (3), ppid (4), ..., utime (14), stime (15), cutime (16), cstime (17).
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            long Field(int index) => long.Parse(fields[index], CultureInfo.InvariantCulture);
            return ((int)Field(1), Field(11) + Field(12), Field(13) + Field(14));
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException or ArgumentOutOfRangeException)
        {
            return null;
        }
    }
}
