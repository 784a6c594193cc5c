using System.Runtime.CompilerServices;
using OrderService.Data.Orders;
using Polly;
using Polly.Retry;
using Polly.Timeout;

namespace OrderService.Data.Resilience;

/// <summary>
/// Wraps the provider's store so that every call is bounded in time and survives brief faults: a total
/// timeout, a bounded retry (with backoff and jitter) of transient faults only, and a per-attempt timeout.
/// What still fails surfaces as <see cref="StoreUnavailableException"/> (503 + Retry-After), never a hang.
/// It also gates the schema: the first call that reaches the store creates it, so the service starts
/// while the store is down and recovers by itself when the store comes back.
/// </summary>
public sealed class ResilientOrderStore : IOrderStore, IDisposable
{
    private readonly IOrderStore _inner;
    private readonly IStoreSchema _schema;
    private readonly ITransientFaults _faults;
    private readonly ResiliencePipeline _calls;
    private readonly ResiliencePipeline _probes;
    private readonly SemaphoreSlim _schemaGate = new(1, 1);
    private volatile bool _schemaReady;

    public ResilientOrderStore(IOrderStore inner, IStoreSchema schema, ITransientFaults faults, ResilienceOptions options, TimeProvider clock)
    {
        _inner = inner;
        _schema = schema;
        _faults = faults;
        _calls = BuildCallPipeline(options, clock);

        // Readiness is a question, not a request: one attempt, bounded, no retry.
        _probes = new ResiliencePipelineBuilder { TimeProvider = clock }
            .AddTimeout(TimeSpan.FromSeconds(options.AttemptTimeoutSeconds))
            .Build();
    }

    public Task<CreateResult> CreateAsync(NewOrder order, CancellationToken cancellationToken) =>
        RunAsync(_calls, static (store, order, token) => store.CreateAsync(order, token), order, cancellationToken);

    public Task<Order?> GetAsync(Guid id, CancellationToken cancellationToken) =>
        RunAsync(_calls, static (store, id, token) => store.GetAsync(id, token), id, cancellationToken);

    public Task<TransitionResult> TransitionAsync(TransitionCommand command, CancellationToken cancellationToken) =>
        RunAsync(_calls, static (store, command, token) => store.TransitionAsync(command, token), command, cancellationToken);

    public IAsyncEnumerable<Order> GetManyAsync(IReadOnlyCollection<Guid> ids, CancellationToken cancellationToken) =>
        StreamAsync(static (store, ids, token) => store.GetManyAsync(ids, token), ids, cancellationToken);

    /// <summary>
    /// The page's lookahead is an ordinary call (bounded, retried); its rows are a stream like the others,
    /// re-opened from the start when its first row fails. The inner page's rows are cold (see the port), so
    /// re-enumerating them re-runs the range query with the same bounds: the Link already decided stays true.
    /// </summary>
    public async Task<OrderPage> ListByCustomerAsync(CustomerOrdersQuery query, CancellationToken cancellationToken)
    {
        var page = await RunAsync(_calls, static (store, query, token) => store.ListByCustomerAsync(query, token), query, cancellationToken).ConfigureAwait(false);
        return page with { Orders = StreamAsync(static (_, rows, _) => rows, page.Orders, CancellationToken.None) };
    }

    public Task CheckReadyAsync(CancellationToken cancellationToken) =>
        RunAsync(_probes, static async (store, _, token) =>
        {
            await store.CheckReadyAsync(token).ConfigureAwait(false);
            return true;
        }, 0, cancellationToken);

    /// <summary>Creates the schema now if the store is reachable (a start-up warm-up); safe to call any time.</summary>
    public Task PrepareAsync(CancellationToken cancellationToken) =>
        RunAsync(_calls, static (_, _, _) => Task.FromResult(true), 0, cancellationToken);

    private static ResiliencePipeline BuildCallPipeline(ResilienceOptions options, TimeProvider clock)
    {
        var builder = new ResiliencePipelineBuilder { TimeProvider = clock }
            .AddTimeout(TimeSpan.FromSeconds(options.TotalTimeoutSeconds));
        if (options.MaxRetries > 0)
        {
            builder.AddRetry(new RetryStrategyOptions
            {
                MaxRetryAttempts = options.MaxRetries,
                Delay = TimeSpan.FromMilliseconds(options.RetryDelayMilliseconds),
                BackoffType = DelayBackoffType.Exponential,
                UseJitter = true,

                // The store classifies its own faults; an attempt that timed out is worth another try too.
                ShouldHandle = static args => ValueTask.FromResult(
                    args.Outcome.Exception is TimeoutRejectedException or TransientStoreFault),
            });
        }

        return builder.AddTimeout(TimeSpan.FromSeconds(options.AttemptTimeoutSeconds)).Build();
    }

    private async Task<TResult> RunAsync<TArgument, TResult>(
        ResiliencePipeline pipeline,
        Func<IOrderStore, TArgument, CancellationToken, Task<TResult>> operation,
        TArgument argument,
        CancellationToken cancellationToken,
        bool abandonable = true)
    {
        try
        {
            return await pipeline.ExecuteAsync(
                static async (state, attemptToken) =>
                {
                    var self = state.Self;
                    try
                    {
                        await self.EnsureSchemaAsync(attemptToken).ConfigureAwait(false);

                        var pending = state.Operation(self._inner, state.Argument, attemptToken);

                        // WaitAsync abandons an attempt that ignores cancellation, so the bound holds even then.
                        // A stream cannot be abandoned (its reader would leak): it relies on the linked token.
                        return await (state.Abandonable ? pending.WaitAsync(attemptToken) : pending).ConfigureAwait(false);
                    }
                    catch (Exception fault) when (self._faults.IsTransient(fault))
                    {
                        throw new TransientStoreFault(fault);
                    }
                },
                (Self: this, Operation: operation, Argument: argument, Abandonable: abandonable),
                cancellationToken).ConfigureAwait(false);
        }
        catch (Exception fault) when (fault is TimeoutRejectedException or TransientStoreFault)
        {
            // The caller gave up meanwhile: that is a cancellation, not an outage.
            cancellationToken.ThrowIfCancellationRequested();
            throw Unavailable(fault);
        }
    }

    private async IAsyncEnumerable<Order> StreamAsync<TArgument>(
        Func<IOrderStore, TArgument, CancellationToken, IAsyncEnumerable<Order>> open,
        TArgument argument,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var rows = await RunAsync(_calls, static (store, state, token) => state.Self.OpenStreamAsync(state.Open, state.Argument, state.Caller, token),
            (Self: this, Open: open, Argument: argument, Caller: cancellationToken), cancellationToken, abandonable: false).ConfigureAwait(false);
        await using (rows.ConfigureAwait(false))
        {
            while (await rows.MoveNextAsync().ConfigureAwait(false))
            {
                yield return rows.Current;
            }
        }
    }

    /// <summary>
    /// One attempt at opening a stream: it succeeds once the first row (or the end) has arrived, so that a
    /// fault before any row is retried and answered with a clean 503. The enumerator gets its own token,
    /// linked to the caller's, because the attempt's token belongs to the pipeline and dies with the attempt.
    /// </summary>
    private async Task<OpenedStream> OpenStreamAsync<TArgument>(
        Func<IOrderStore, TArgument, CancellationToken, IAsyncEnumerable<Order>> open,
        TArgument argument,
        CancellationToken callerToken,
        CancellationToken attemptToken)
    {
        var lifetime = CancellationTokenSource.CreateLinkedTokenSource(callerToken);
        var enumerator = open(_inner, argument, lifetime.Token).GetAsyncEnumerator(lifetime.Token);
        try
        {
            bool hasFirst;
            using (attemptToken.Register(static source => ((CancellationTokenSource)source!).Cancel(), lifetime))
            {
                hasFirst = await enumerator.MoveNextAsync().ConfigureAwait(false);
            }

            // The attempt timed out just as the first row came: the stream's token is spent, so try again.
            attemptToken.ThrowIfCancellationRequested();

            return new OpenedStream(enumerator, lifetime, hasFirst, _faults);
        }
        catch
        {
            await enumerator.DisposeAsync().ConfigureAwait(false);
            lifetime.Dispose();
            throw;
        }
    }

    private async ValueTask EnsureSchemaAsync(CancellationToken cancellationToken)
    {
        if (_schemaReady)
        {
            return;
        }

        await _schemaGate.WaitAsync(cancellationToken).ConfigureAwait(false);
        try
        {
            if (!_schemaReady)
            {
                await _schema.EnsureCreatedAsync(cancellationToken).WaitAsync(cancellationToken).ConfigureAwait(false);
                _schemaReady = true;
            }
        }
        finally
        {
            _schemaGate.Release();
        }
    }

    public void Dispose() => _schemaGate.Dispose();

    private static StoreUnavailableException Unavailable(Exception fault) => fault is TimeoutRejectedException timeout
        ? new StoreUnavailableException($"The order store did not answer in time ({timeout.Timeout.TotalSeconds:0.#} s).", timeout)
        : new StoreUnavailableException($"The order store is unavailable: {fault.InnerException!.Message}", fault.InnerException);

    /// <summary>Marks a fault the provider called transient, so the retry predicate need not ask again.</summary>
    private sealed class TransientStoreFault(Exception inner) : Exception(inner.Message, inner);

    /// <summary>A stream whose first row is already fetched; later faults become <see cref="StoreUnavailableException"/>, never retried.</summary>
    private sealed class OpenedStream(IAsyncEnumerator<Order> rows, CancellationTokenSource lifetime, bool hasFirst, ITransientFaults faults)
        : IAsyncDisposable
    {
        private bool _firstPending = hasFirst;
        private bool _ended = !hasFirst;

        public Order Current => rows.Current;

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
                _ended = !await rows.MoveNextAsync().ConfigureAwait(false);
                return !_ended;
            }
            catch (Exception fault) when (faults.IsTransient(fault))
            {
                throw new StoreUnavailableException($"The order store failed mid-stream: {fault.Message}", fault);
            }
        }

        public async ValueTask DisposeAsync()
        {
            await rows.DisposeAsync().ConfigureAwait(false);
            lifetime.Dispose();
        }
    }
}
