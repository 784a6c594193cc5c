using System.Globalization;

namespace OrderService.Load.Shootout;

/// <summary>
/// How far one measured run can be trusted: how long it lasted, and how busy the machine was just before
/// and just after it. A run of a few seconds is dominated by its tails (the last copies finishing, one GC,
/// one checkpoint), and on a shared machine another process's work lands in any run; both can turn a
/// ranking around. The report flags such runs rather than silently mixing them with good ones.
/// </summary>
public sealed record RunConditions(double WallSeconds, LoadSample Before, LoadSample After)
{
    /// <summary>Below this a measured run is flagged short: its figure is not worth quoting.</summary>
    public const double ShortRunSeconds = 5;

    /// <summary>CPU busy while the harness idles, at or above which a run is flagged noisy.</summary>
    public const double NoisyBackgroundCpu = 0.25;

    public bool IsShort => WallSeconds < ShortRunSeconds;

    public bool IsNoisy => Before.BackgroundCpu >= NoisyBackgroundCpu || After.BackgroundCpu >= NoisyBackgroundCpu;

    /// <summary>"short, noisy", or empty when the run looks sound.</summary>
    public string Flags => string.Join(", ", new[] { IsShort ? "short" : null, IsNoisy ? "noisy" : null }.OfType<string>());
}

/// <summary>
/// The machine's load at one moment: the kernel's load averages (1, 5, 15 min) and the share of CPU time
/// that was busy over a short window while the harness did nothing (its service stopped, no load running):
/// that is other processes' work. The load averages include the harness's own recent runs; the window does not.
/// </summary>
public sealed record LoadSample(double Load1, double Load5, double Load15, double? BackgroundCpu)
{
    public override string ToString() => string.Create(CultureInfo.InvariantCulture,
        $"load {Load1:F2}, idle-time CPU {(BackgroundCpu is { } busy ? (busy * 100).ToString("F0", CultureInfo.InvariantCulture) + "%" : "?")}");
}
