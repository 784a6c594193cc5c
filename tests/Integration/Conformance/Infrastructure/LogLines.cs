using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace OrderService.Integration.Tests.Conformance.Infrastructure;

/// <summary>
/// The service's log lines of the levels a test asks for, formatted, into a queue the test reads: for a test that
/// checks what the service said (<c>web.ConfigureLogging(logging =&gt; logging.AddProvider(new LogLines(lines, ...)))</c>).
/// </summary>
/// <param name="withException">Append the exception, when the line has one (its type, message and stack).</param>
internal sealed class LogLines(ConcurrentQueue<string> lines, Func<LogLevel, bool> levels, bool withException = false) : ILoggerProvider, ILogger
{
    public ILogger CreateLogger(string categoryName) => this;

    public IDisposable? BeginScope<TState>(TState state)
        where TState : notnull => null;

    public bool IsEnabled(LogLevel logLevel) => levels(logLevel);

    public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
    {
        if (IsEnabled(logLevel))
        {
            lines.Enqueue(withException ? $"{formatter(state, exception)} {exception}" : formatter(state, exception));
        }
    }

    public void Dispose()
    {
    }
}
