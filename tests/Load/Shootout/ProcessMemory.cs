using System.Globalization;

namespace OrderService.Load.Shootout;

/// <summary>A process's memory, read from /proc: what a service needed under the load, beside what it cost in CPU.</summary>
public static class ProcessMemory
{
    /// <summary>
    /// The peak resident set of <paramref name="pid"/> over its life so far (VmHWM in /proc/&lt;pid&gt;/status), in MB,
    /// or null when /proc cannot tell (not Linux, the process is gone).
    /// </summary>
    public static double? PeakMegabytes(int pid) => StatusMegabytes(pid, "VmHWM:");

    /// <summary>The resident set of <paramref name="pid"/> now (VmRSS), in MB, or null as for <see cref="PeakMegabytes"/>.</summary>
    public static double? ResidentMegabytes(int pid) => StatusMegabytes(pid, "VmRSS:");

    private static double? StatusMegabytes(int pid, string field)
    {
        try
        {
            var line = File.ReadLines($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/status").FirstOrDefault(l => l.StartsWith(field, StringComparison.Ordinal));

            // "VmHWM:    123456 kB"
            return line is null ? null : Math.Round(long.Parse(line[field.Length..].Trim().Split(' ')[0], CultureInfo.InvariantCulture) / 1024.0, 1);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or FormatException)
        {
            return null;
        }
    }
}
