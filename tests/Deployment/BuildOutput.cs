using Microsoft.Extensions.Logging;

namespace OrderService.Deployment.Tests;

/// <summary>
/// Keeps the last lines Docker prints while it builds the image, passing everything on to Testcontainers' own logger.
/// Testcontainers reports the build output only at Debug, and a failed build only as "returned a non-zero code: 1";
/// the cause (e.g. NETSDK1094 from the publish step) is in the lines before that, so the test shows them.
/// </summary>
internal sealed class BuildOutput(ILogger next, int keep = 60) : ILogger
{
    private readonly Queue<string> _lines = new();

    /// <summary>The last lines of the build, oldest first.</summary>
    public string Tail
    {
        get
        {
            lock (_lines)
            {
                return string.Join('\n', _lines);
            }
        }
    }

    public bool IsEnabled(LogLevel logLevel) => logLevel >= LogLevel.Debug;

    public IDisposable? BeginScope<TState>(TState state)
        where TState : notnull => next.BeginScope(state);

    public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
    {
        lock (_lines)
        {
            foreach (var line in formatter(state, exception).Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            {
                _lines.Enqueue(line);
                if (_lines.Count > keep)
                {
                    _lines.Dequeue();
                }
            }
        }

        if (next.IsEnabled(logLevel))
        {
            next.Log(logLevel, eventId, state, exception, formatter);
        }
    }
}
