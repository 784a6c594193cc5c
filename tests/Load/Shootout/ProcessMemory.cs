using System.Globalization;

namespace OrderService.Load.Shootout;

/// <summary>A process's memory, read from /proc: what a service needed under the load, beside what it cost in CPU.</summary>
public static class ProcessMemory
{
    /// <summary>
    /// The peak resident set of <paramref name="pid"/> over its life so far (VmHWM in /proc/&lt;pid&gt;/status), in MB,
    /// or null when /proc cannot tell (not Linux, the process is gone).
    /// </summary>
    public static double? PeakMegabytes(int pid)
    {
        try
        {
            var line = File.ReadLines($"/proc/{pid.ToString(CultureInfo.InvariantCulture)}/status").FirstOrDefault(l => l.StartsWith("VmHWM:", StringComparison.Ordinal));

            // "VmHWM:    123456 kB"
            return line is null ? null : Math.Round(long.Parse(line["VmHWM:".Length..].Trim().Split(' ')[0], CultureInfo.InvariantCulture) / 1024.0, 1);
        }
        catch (Exception exception) when (exception is IOException or UnauthorizedAccessException or FormatException)
        {
            return null;
        }
    }
}
