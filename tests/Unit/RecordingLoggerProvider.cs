using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;

namespace OrderService.Unit.Tests;

/// <summary>Keeps every line logged under the categories <paramref name="records"/> accepts, with its level.</summary>
internal sealed class RecordingLoggerProvider(Func<string, bool> records) : ILoggerProvider
{
    private readonly ConcurrentQueue<(LogLevel Level, string Text)> _lines = new();

    public IReadOnlyList<(LogLevel Level, string Text)> Lines => [.. _lines];

    public ILogger CreateLogger(string categoryName) => records(categoryName) ? new Recorder(_lines) : NullLogger.Instance;

    public void Dispose()
    {
    }

    private sealed class Recorder(ConcurrentQueue<(LogLevel, string)> lines) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            lines.Enqueue((logLevel, formatter(state, exception)));
    }
}
