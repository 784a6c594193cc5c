using System.Globalization;

namespace OrderService.Load.Shootout;

/// <summary>Workflows per second between the marks of a scale-out row: before, while the worker joins, while shards move, after.</summary>
public static class ScaleOutPhases
{
    /// <summary>A phase that begins <paramref name="At"/> into the measured run, when <paramref name="Finished"/> workflows had finished.</summary>
    public sealed record Mark(string Phase, TimeSpan At, long Finished);

    /// <summary>
    /// "before 150 wf/s (0.0-10.0 s, 1,500 workflows); joining ...": each phase up to the next mark. The run's
    /// <paramref name="end"/> ends the last phase it reached; a phase that began after it is left out.
    /// </summary>
    public static string Describe(IReadOnlyList<Mark> marks, Mark end)
    {
        var phases = marks.Where(m => m.At < end.At).Append(end).ToList();
        return string.Join("; ", phases.Zip(phases.Skip(1), (from, to) =>
        {
            var seconds = (to.At - from.At).TotalSeconds;
            var workflows = to.Finished - from.Finished;
            var rate = seconds > 0 ? workflows / seconds : 0;
            return string.Create(CultureInfo.InvariantCulture, $"{from.Phase} {rate:F0} wf/s "
                + $"({from.At.TotalSeconds:F1}-{to.At.TotalSeconds:F1} s, {workflows:N0} workflows)");
        }));
    }
}
