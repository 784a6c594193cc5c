using System.Globalization;

namespace OrderService.Load.Shootout;

/// <summary>
/// The warm-up a row had before its measured run: how many workflows, in how many windows, each window's wf/s, and
/// whether it stopped at steady state (two consecutive windows within the tolerance) or at the cap.
/// </summary>
public sealed record WarmupUsed(string Mode, int Workflows, int Cap, List<double> WindowRates, bool Steady)
{
    public const string Adaptive = "adaptive";
    public const string Fixed = "fixed";
    public const string Off = "off";

    public static WarmupUsed None { get; } = new(Off, 0, 0, [], false);

    // A record compares a list by reference: a warm-up read back from report.json must equal the one that ran.
    public bool Equals(WarmupUsed? other) =>
        other is not null && Mode == other.Mode && Workflows == other.Workflows && Cap == other.Cap && Steady == other.Steady
        && WindowRates.SequenceEqual(other.WindowRates);

    public override int GetHashCode() => HashCode.Combine(Mode, Workflows, Cap, Steady, WindowRates.Count);

    /// <summary>"900 wf, steady (3 windows: 210, 301, 309 wf/s)", "2000 wf, cap reached", "2000 wf, fixed", "none".</summary>
    public override string ToString()
    {
        if (Mode == Off)
        {
            return "none";
        }

        var windows = string.Join(", ", WindowRates.Select(r => r.ToString("F0", CultureInfo.InvariantCulture)));
        var how = Mode == Fixed ? "fixed" : Steady ? "steady" : "cap reached";
        return string.Create(CultureInfo.InvariantCulture, $"{Workflows} wf, {how} ({WindowRates.Count} window{(WindowRates.Count == 1 ? "" : "s")}: {windows} wf/s)");
    }
}
