namespace OrderService.Data.Resilience;

/// <summary>Slow preparatory work run once, whoever asks first; a caller's token ends only its own wait.</summary>
public sealed class SharedRun(Func<CancellationToken, Task> work, TimeSpan timeout)
{
    private readonly Lock _gate = new();
    private Task? _run;

    public Task WaitAsync(CancellationToken cancellationToken)
    {
        Task run;
        lock (_gate)
        {
            if (_run is null || _run.IsFaulted || _run.IsCanceled)
            {
                _run = RunAsync();

                // Every waiter may have given up before it fails: observe the fault so it is not "unobserved".
                _run.ContinueWith(static t => _ = t.Exception, CancellationToken.None,
                    TaskContinuationOptions.OnlyOnFaulted, TaskScheduler.Default);
            }

            run = _run;
        }

        return run.WaitAsync(cancellationToken);
    }

    private async Task RunAsync()
    {
        using var bound = new CancellationTokenSource(timeout);
        await work(bound.Token);
    }
}
