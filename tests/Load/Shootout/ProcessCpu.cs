using System.Globalization;

namespace OrderService.Load.Shootout;

/// <summary>
/// A process's CPU time (user + system, all threads) from /proc/&lt;pid&gt;/stat: the service's own cost over a
/// measured window, apart from the load driver's and the database's on the same cores. Linux only; elsewhere null.
/// </summary>
public static class ProcessCpu
{
    // USER_HZ: the unit of utime/stime. 100 on every Linux ABI .NET runs on (sysconf(_SC_CLK_TCK)).
    private const double TicksPerSecond = 100;

    /// <summary>User + system CPU time of <paramref name="pid"/> so far, or null when /proc cannot tell (not Linux, the process is gone).</summary>
    public static TimeSpan? Of(int pid)
    {
        try
        {
            var stat = File.ReadAllText($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/stat");

            // The command name (field 2) is in parentheses and may hold spaces: count fields after its last ')'.
            // After it: state (3), ..., utime (14), stime (15).
            var fields = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            var ticks = long.Parse(fields[11], CultureInfo.InvariantCulture) + long.Parse(fields[12], CultureInfo.InvariantCulture);
            return TimeSpan.FromSeconds(ticks / TicksPerSecond);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or FormatException or IndexOutOfRangeException or ArgumentOutOfRangeException)
        {
            return null;
        }
    }

    /// <summary>This process (the load driver).</summary>
    public static TimeSpan? OfSelf() => Of(Environment.ProcessId);

    /// <summary>Milliseconds of CPU per workflow between two readings, or null when either is missing.</summary>
    public static double? MillisecondsPerWorkflow(TimeSpan? before, TimeSpan? after, long workflows) =>
        before is { } b && after is { } a && workflows > 0 ? Math.Round((a - b).TotalMilliseconds / workflows, 4) : null;
}
