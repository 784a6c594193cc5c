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
        var rows = await RunAsync(
            operation,
            RerunSafety.Always,
            static (source, state, token) =>
                state.Self.OpenStreamAsync(state.Open, source, state.Argument, state.Caller, token),
            target,
            (Self: this, Open: open, Argument: argument, Caller: cancellationToken),
            cancellationToken,
            abandonable: false);
        await using (rows)
        {
            while (await rows.MoveNextAsync())
            {
                yield return rows.Current;
            }
        }
    }

    private async Task<OpenedStream<TRow>> OpenStreamAsync<TTarget, TArgument, TRow>(
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

            return new OpenedStream<TRow>(enumerator, lifetime, hasFirst, _faults);
        }
        catch
        {
            await enumerator.DisposeAsync();
            lifetime.Dispose();
            throw;
        }
    }

    private sealed class OpenedStream<TRow>(IAsyncEnumerator<TRow> rows, CancellationTokenSource lifetime,
        bool hasFirst, ITransientFaults faults)
        : IAsyncDisposable
    {
        private bool _firstPending = hasFirst;
        private bool _ended = !hasFirst;

        public TRow Current => rows.Current;

        public async ValueTask<bool> MoveNextAsync()
        {
            if (_firstPending)
            {
                _firstPending = false;
                return true;
            }

            if (_ended)
            {
                return false;
            }

            try
            {
                _ended = !await rows.MoveNextAsync();
                return !_ended;
            }
            catch (Exception fault) when (faults.IsRefusal(fault))
            {
                throw new StoreRefusedException(StoreErrors.Describe(fault, faults) ?? fault.Message, fault);
            }
            catch (Exception fault) when (faults.IsTransient(fault))
            {
                throw new StoreUnavailableException($"The order store failed mid-stream: {fault.Message}", fault);
            }
            catch (Exception fault) when (StoreErrors.Describe(fault, faults) is { } engineError)
            {
                throw new StoreUnavailableException($"The order store failed mid-stream: {engineError}",
                    fault) { UnclassifiedEngineError = engineError };
            }
        }

        public async ValueTask DisposeAsync()
        {
            await rows.DisposeAsync();
            lifetime.Dispose();
        }
    }
}
