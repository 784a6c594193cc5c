using System.Globalization;

namespace OrderService.Load.Scenarios;

/// <summary>
/// The whole shoot-out's clock for the live view: time since the start, and an estimate of the time left from the
/// rows still to run at the average pace of the rows done so far (each row: start, warm-up, measured run, audit, raw).
/// Rows differ (a baseline row is slower than a traded one), so the estimate is a guide that firms up as rows finish.
/// </summary>
public sealed class RunEstimate
{
    private readonly TimeProvider _time;
    private readonly long _startedAt;
    private TimeSpan _firstRowStartedAt = TimeSpan.MinValue;
    private TimeSpan _currentRowStartedAt;
    private int _planned;
    private int _done;

    public RunEstimate(int plannedRows, TimeProvider? time = null)
    {
        _planned = Math.Max(0, plannedRows);
        _time = time ?? TimeProvider.System;
        _startedAt = _time.GetTimestamp();
    }

    public TimeSpan Elapsed => _time.GetElapsedTime(_startedAt);

    public int Planned => Volatile.Read(ref _planned);

    public int Done => Volatile.Read(ref _done);

    public void RowStarted()
    {
        _currentRowStartedAt = Elapsed;
        if (_firstRowStartedAt == TimeSpan.MinValue)
        {
            _firstRowStartedAt = _currentRowStartedAt;
        }
    }

    public void RowFinished() => Interlocked.Increment(ref _done);

    /// <summary>Rows that will not run after all (a store that could not be brought up, a skipped replica count).</summary>
    public void Drop(int rows) => Interlocked.Add(ref _planned, -Math.Min(rows, Planned - Done));

    /// <summary>The time left, or null before the first row has finished (nothing to extrapolate from yet).</summary>
    public TimeSpan? Left
    {
        get
        {
            var done = Done;
            if (done == 0 || _firstRowStartedAt == TimeSpan.MinValue)
            {
                return null;
            }

            var perRow = (_currentRowStartedAt - _firstRowStartedAt) / done;
            var inCurrentRow = Elapsed - _currentRowStartedAt;
            var left = perRow * Math.Max(0, Planned - done) - inCurrentRow;
            return left > TimeSpan.Zero ? left : TimeSpan.Zero;
        }
    }

    public override string ToString()
    {
        var left = Left is { } l ? $"~{Clock(l)} left" : "time left: after the first row";
        return $"row {Math.Min(Done + 1, Math.Max(1, Planned))}/{Planned}, elapsed {Clock(Elapsed)}, {left}";
    }

    public static string Clock(TimeSpan span) =>
        string.Create(CultureInfo.InvariantCulture, $"{(int)span.TotalMinutes}:{span.Seconds:D2}");
}
