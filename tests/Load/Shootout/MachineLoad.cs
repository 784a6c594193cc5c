using System.Globalization;

namespace OrderService.Load.Shootout;

/// <summary>Reads the machine's load from /proc (Linux); elsewhere the sample holds zeros and no CPU share.</summary>
public static class MachineLoad
{
    /// <summary>How long the CPU is watched while the harness idles.</summary>
    public static readonly TimeSpan Window = TimeSpan.FromSeconds(1);

    public static async Task<LoadSample> SampleAsync(CancellationToken cancellationToken)
    {
        var (load1, load5, load15) = File.Exists("/proc/loadavg") ? ParseLoadAverage(await File.ReadAllTextAsync("/proc/loadavg", cancellationToken).ConfigureAwait(false)) : (0, 0, 0);
        if (!File.Exists("/proc/stat"))
        {
            return new LoadSample(load1, load5, load15, null);
        }

        var first = await File.ReadAllTextAsync("/proc/stat", cancellationToken).ConfigureAwait(false);
        await Task.Delay(Window, cancellationToken).ConfigureAwait(false);
        var second = await File.ReadAllTextAsync("/proc/stat", cancellationToken).ConfigureAwait(false);
        return new LoadSample(load1, load5, load15, BusyFraction(first, second));
    }

    /// <summary>The three load averages of /proc/loadavg ("0.52 0.58 0.59 1/467 12345").</summary>
    public static (double One, double Five, double Fifteen) ParseLoadAverage(string loadavg)
    {
        var fields = loadavg.Split(' ', StringSplitOptions.RemoveEmptyEntries);
        return (Parse(fields[0]), Parse(fields[1]), Parse(fields[2]));
    }

    /// <summary>
    /// The share of CPU time that was busy between two reads of /proc/stat: everything but idle and iowait,
    /// over everything, from the first ("cpu ...") line, which sums all cores.
    /// </summary>
    public static double? BusyFraction(string before, string after)
    {
        var (busy0, total0) = CpuTimes(before);
        var (busy1, total1) = CpuTimes(after);
        var total = total1 - total0;
        return total <= 0 ? null : Math.Clamp((double)(busy1 - busy0) / total, 0, 1);
    }

    private static (long Busy, long Total) CpuTimes(string stat)
    {
        // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest time is already in user)
        var line = stat.Split('\n').First(l => l.StartsWith("cpu ", StringComparison.Ordinal));
        var ticks = line.Split(' ', StringSplitOptions.RemoveEmptyEntries).Skip(1).Take(8)
            .Select(t => long.Parse(t, CultureInfo.InvariantCulture)).ToArray();
        var idle = ticks[3] + ticks[4];
        var total = ticks.Sum();
        return (total - idle, total);
    }

    private static double Parse(string text) => double.Parse(text, CultureInfo.InvariantCulture);
}
