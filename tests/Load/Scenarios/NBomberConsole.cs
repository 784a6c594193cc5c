using Spectre.Console;
using Spectre.Console.Rendering;

namespace OrderService.Load.Scenarios;

/// <summary>
/// Makes NBomber's console safe to write to while its live table refreshes. Call it before anything reads the console.
/// </summary>
/// <remarks>
/// NBomber draws its live table with Spectre.Console and logs through a Serilog sink that writes to the same console.
/// Spectre's live display refreshes under its own lock and then takes the console's render lock, while a log line
/// takes the render lock and then, in the live display's render hook, the display's lock: the opposite order
/// (spectreconsole/spectre.console#435). NBomber's "Stopping scenario early" warning at the end of every closed-model
/// run hit that window and left the process idle for good. <see cref="HookFirstConsole"/> runs the hooks before it
/// takes its write lock, so no thread holds one lock while it waits for the other.
/// </remarks>
public static class NBomberConsole
{
    private static int _installed;

    public static void Install()
    {
        if (Interlocked.Exchange(ref _installed, 1) == 1)
        {
            return;
        }

        // With TERM set, .NET reads the terminal's size from terminfo even when output is redirected (24 rows), so
        // NBomber takes a log file or a CI job for a terminal and draws its live table into it. Without TERM it reports
        // no window and NBomber writes plain progress lines. This works only before the size is first read.
        if ((Console.IsOutputRedirected || Environment.GetEnvironmentVariable("CI") is { Length: > 0 })
            && Environment.GetEnvironmentVariable("TERM") is not null)
        {
            Environment.SetEnvironmentVariable("TERM", null);
        }

        AnsiConsole.Console = new HookFirstConsole(AnsiConsole.Console);
    }
}

/// <summary>
/// An <see cref="IAnsiConsole"/> that runs its render hooks (a live display's) before it takes its write lock, then
/// writes their output through the console it fronts, whose own pipeline stays empty.
/// </summary>
public sealed class HookFirstConsole(IAnsiConsole inner) : IAnsiConsole
{
    private readonly Lock _writeLock = new();

    public Profile Profile => inner.Profile;

    public IAnsiConsoleCursor Cursor => inner.Cursor;

    public IAnsiConsoleInput Input => inner.Input;

    /// <summary>NBomber starts its closing status while its progress display still ends: the second waits its turn.</summary>
    public IExclusivityMode ExclusivityMode { get; } = new TakeTurns();

    /// <summary>The hooks live here, not on the inner console, so they run outside the write lock.</summary>
    public RenderPipeline Pipeline { get; } = new();

    public void Clear(bool home)
    {
        lock (_writeLock)
        {
            inner.Clear(home);
        }
    }

    public void Write(IRenderable renderable)
    {
        var rendered = Pipeline.Process(RenderOptions.Create(this), [renderable]).ToList();
        lock (_writeLock)
        {
            foreach (var part in rendered)
            {
                inner.Write(part);
            }
        }
    }

    private sealed class TakeTurns : IExclusivityMode, IDisposable
    {
        private readonly SemaphoreSlim _turn = new(1, 1);

        public void Dispose() => _turn.Dispose();

        public T Run<T>(Func<T> func)
        {
            _turn.Wait();
            try
            {
                return func();
            }
            finally
            {
                _turn.Release();
            }
        }

        public async Task<T> RunAsync<T>(Func<Task<T>> func)
        {
            await _turn.WaitAsync().ConfigureAwait(false);
            try
            {
                return await func().ConfigureAwait(false);
            }
            finally
            {
                _turn.Release();
            }
        }
    }
}
