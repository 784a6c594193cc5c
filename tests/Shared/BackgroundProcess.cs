using CliWrap;

namespace OrderService.Testing;

/// <summary>
/// A command running in the background until it exits, or until it is killed with its children (on dispose at the
/// latest). Its output goes where the command's pipes send it.
/// </summary>
public sealed class BackgroundProcess : IAsyncDisposable
{
    private readonly CancellationTokenSource _kill = new();
    private readonly CommandTask<CommandResult> _run;

    private BackgroundProcess(Command command) =>
        _run = command.WithValidation(CommandResultValidation.None).ExecuteAsync(_kill.Token);

    public int Id => _run.ProcessId;

    public bool HasExited => _run.Task.IsCompleted;

    public static BackgroundProcess Start(Command command) => new(command);

    /// <summary>Its exit code once it has exited and its output is read; a killed process throws instead.</summary>
    public async Task<int> WaitForExitAsync(CancellationToken cancellationToken = default) =>
        (await _run.Task.WaitAsync(cancellationToken).ConfigureAwait(false)).ExitCode;

    /// <summary>SIGKILL to the process and its children; returns once it has exited.</summary>
    public async Task KillAsync()
    {
        await _kill.CancelAsync().ConfigureAwait(false);
        try
        {
            await _run.Task.ConfigureAwait(false);
        }
        catch (OperationCanceledException)
        {
            // What a killed command's task ends with.
        }
    }

    public async ValueTask DisposeAsync()
    {
        await KillAsync().ConfigureAwait(false);
        _run.Dispose();
        _kill.Dispose();
    }
}
