using System.Runtime.CompilerServices;

namespace OrderService.Data.Resilience;

/// <summary>Streamed reads: a fault before the first row is retried or a 503; one after it ends the stream.</summary>
public sealed partial class ResilientCalls
{
    /// <summary>The rows <paramref name="open"/> streams, opened as one call of <paramref name="operation"/>.</summary>
    public async IAsyncEnumerable<TRow> StreamAsync<TTarget, TArgument, TRow>(
        string operation,
        Func<TTarget, TArgument, CancellationToken, IAsyncEnumerable<TRow>> open,
        TTarget target,
        TArgument argument,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var opened = await RunAsync(
            operation,
            RerunSafety.Always,
            static (source, state, token) => OpenAsync(state.Open, source, state.Argument, state.Caller, token),
            target,
            (Open: open, Argument: argument, Caller: cancellationToken),
            cancellationToken,
            abandonable: false);
        using var lifetime = opened.Lifetime;
        await using var rows = opened.Rows;
        for (var more = opened.HasFirst; more; more = await NextAsync(rows))
        {
            yield return rows.Current;
        }
    }

    /// <summary>Opens the stream and reads its first row within the attempt; the rows outlive the attempt.</summary>
    private static async Task<(IAsyncEnumerator<TRow> Rows, CancellationTokenSource Lifetime, bool HasFirst)>
        OpenAsync<TTarget, TArgument, TRow>(
            Func<TTarget, TArgument, CancellationToken, IAsyncEnumerable<TRow>> open,
            TTarget target,
            TArgument argument,
            CancellationToken callerToken,
            CancellationToken attemptToken)
    {
        var lifetime = CancellationTokenSource.CreateLinkedTokenSource(callerToken);
        var enumerator = open(target, argument, lifetime.Token).GetAsyncEnumerator(lifetime.Token);
        try
        {
            bool hasFirst;
            using (attemptToken.Register(static source => ((CancellationTokenSource)source!).Cancel(), lifetime))
            {
                hasFirst = await enumerator.MoveNextAsync();
            }

            // The attempt timed out just as the first row came: the stream's token is spent, so try again.
            attemptToken.ThrowIfCancellationRequested();

            return (enumerator, lifetime, hasFirst);
        }
        catch
        {
            await enumerator.DisposeAsync();
            lifetime.Dispose();
            throw;
        }
    }

    private async ValueTask<bool> NextAsync<TRow>(IAsyncEnumerator<TRow> rows)
    {
        try
        {
            return await rows.MoveNextAsync();
        }
        catch (Exception fault) when (!_faults.IsRefusal(fault) && _faults.Classify(fault) != StoreFault.Permanent)
        {
            throw new StoreUnavailableException($"The order store failed mid-stream: {fault.Message}", fault);
        }
        catch (Exception fault) when (Settle(fault, "failed mid-stream") is { } settled)
        {
            throw settled;
        }
    }
}
