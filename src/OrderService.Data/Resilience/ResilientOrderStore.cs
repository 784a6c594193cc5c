using OrderService.Data.Orders;
using Polly;
using Polly.CircuitBreaker;
using Polly.Timeout;

namespace OrderService.Data.Resilience;

/// <summary>
/// Wraps the provider's store so that every call is bounded in time, survives brief faults and stops
/// hammering a store that is down: the store's pipeline (<see cref="StorePipeline"/>: total timeout,
/// full-jitter retry, circuit breaker, attempt timeout) with the call's own rerun rule (<see cref="RerunSafety"/>).
/// What still fails surfaces as <see cref="StoreUnavailableException"/> (503 + Retry-After), never a hang; so does
/// an engine error the store cannot classify (<see cref="StoreErrors"/>), where only our own bugs stay 500s.
/// Every call is one span and one duration (<see cref="StoreTelemetry.Call"/>); transitions are counted by outcome.
/// It also gates the schema: the first call that reaches the store creates it, so the service starts
/// while the store is down and recovers by itself when the store comes back.
/// A new port member is one line here: its operation name, its rerun safety, the call.
/// </summary>
public sealed partial class ResilientOrderStore : IOrderStore, IOrderJsonReads, IDisposable
{
    private readonly IOrderStore _inner;
    private readonly IStoreSchema _schema;
    private readonly ITransientFaults _faults;
    private readonly IConnectionPool? _pool;
    private readonly ResiliencePipeline _pipeline;
    private readonly string _system;
    private readonly TimeProvider _clock;
    private readonly SemaphoreSlim _schemaGate = new(1, 1);
    private volatile bool _schemaReady;
    private readonly IOrderJsonReads? _jsonReads;

    /// <param name="store">The provider's store, schema, fault classifier and pool.</param>
    /// <param name="pipeline">The store's pipeline (<see cref="StorePipeline.For"/>).</param>
    /// <param name="system">The store's db.system name, for telemetry.</param>
    public ResilientOrderStore(StoreBundle store, ResiliencePipeline pipeline, string system, TimeProvider clock)
    {
        _inner = store.Store;
        _schema = store.Schema;
        _faults = store.TransientFaults;
        _pool = store.Pool;
        _pipeline = pipeline;
        _system = system;
        _clock = clock;
        _jsonReads = _inner.JsonReads is null ? null : this;
    }

    /// <summary>This decorator's JSON reads (ResilientOrderStore.Json.cs) when the store beneath offers them.</summary>
    public IOrderJsonReads? JsonReads => _jsonReads;

    public Task<CreateResult> CreateAsync(NewOrder order, CancellationToken cancellationToken) =>
        RunAsync("create", RerunSafety.Always, static (store, order, token) => store.CreateAsync(order, token), order, cancellationToken);

    public Task<Order?> GetAsync(Guid id, CancellationToken cancellationToken) =>
        RunAsync("get", RerunSafety.Always, static (store, id, token) => store.GetAsync(id, token), id, cancellationToken);

    public async Task<TransitionResult> TransitionAsync(TransitionCommand command, CancellationToken cancellationToken)
    {
        try
        {
            var result = await RunAsync("transition", RerunRule.Of(command), static (store, command, token) => store.TransitionAsync(command, token), command, cancellationToken)
                .ConfigureAwait(false);
            StoreTelemetry.Transition(_system, command.Action, OutcomeName(result.Outcome));
            return result;
        }
        catch (StoreUnavailableException)
        {
            StoreTelemetry.Transition(_system, command.Action, "unavailable");
            throw;
        }
    }

    /// <summary>A delete of keys older than a cutoff: rerunning it deletes what is left, so it is always safe.</summary>
    public Task<int> ForgetKeysStoredBeforeAsync(DateTimeOffset storedBefore, int limit, CancellationToken cancellationToken) =>
        RunAsync("forget_keys", RerunSafety.Always, static (store, batch, token) => store.ForgetKeysStoredBeforeAsync(batch.StoredBefore, batch.Limit, token),
            (StoredBefore: storedBefore, Limit: limit), cancellationToken);

    public IAsyncEnumerable<Order> GetManyAsync(IReadOnlyCollection<Guid> ids, CancellationToken cancellationToken) =>
        StreamAsync("get_many", static (store, ids, token) => store.GetManyAsync(ids, token), ids, cancellationToken);

    /// <summary>
    /// The page's lookahead is an ordinary call (bounded, retried); its rows are a stream like the others,
    /// re-opened from the start when its first row fails. The inner page's rows are cold (see the port), so
    /// re-enumerating them re-runs the range query with the same bounds: the Link already decided stays true.
    /// </summary>
    public async Task<OrderPage> ListByCustomerAsync(CustomerOrdersQuery query, CancellationToken cancellationToken)
    {
        var page = await RunAsync("list_by_customer", RerunSafety.Always, static (store, query, token) => store.ListByCustomerAsync(query, token), query, cancellationToken)
            .ConfigureAwait(false);
        return page with { Orders = StreamAsync("list_by_customer_rows", static (_, rows, _) => rows, page.Orders, CancellationToken.None) };
    }

    /// <summary>
    /// Readiness goes through the circuit: while it is open the probe answers at once, red, without touching
    /// the store (the instance would answer every request 503, so it is not ready); once the break is over the
    /// probe may be the half-open call that closes it, so an instance taken out of rotation recovers without
    /// waiting for a user request to risk it. One attempt, no retry: the answer is about the store now.
    /// </summary>
    public Task CheckReadyAsync(CancellationToken cancellationToken) =>
        RunAsync("ready", RerunSafety.Never, static async (store, _, token) =>
        {
            await store.CheckReadyAsync(token).ConfigureAwait(false);
            return true;
        }, 0, cancellationToken);

    /// <summary>
    /// Opens <paramref name="count"/> pooled connections at once, straight on the store, and says how many could not
    /// be opened within <paramref name="bound"/>. Outside the retry and the circuit on purpose: a warm-up that asks a
    /// slow engine for more sessions than it opens in time (Babelfish compiles each new session's statements) is not
    /// a sign the store is down, and counted by the breaker its time-outs opened the circuit on the requests behind it.
    /// </summary>
    public async Task<int> OpenPooledConnectionsAsync(int count, TimeSpan bound, CancellationToken cancellationToken)
    {
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(bound);
        var opened = await Task.WhenAll(Enumerable.Range(0, count).Select(async _ =>
        {
            try
            {
                await _inner.CheckReadyAsync(timeout.Token).WaitAsync(timeout.Token).ConfigureAwait(false);
                return true;
            }
            catch (Exception) when (!cancellationToken.IsCancellationRequested)
            {
                // Best effort: a connection not opened now is opened by the request that needs it.
                return false;
            }
        })).ConfigureAwait(false);
        return opened.Count(success => !success);
    }

    /// <summary>Creates the schema now if the store is reachable (a start-up warm-up); safe to call any time.</summary>
    public Task PrepareAsync(CancellationToken cancellationToken) =>
        RunAsync("prepare", RerunSafety.Always, static (_, _, _) => Task.FromResult(true), 0, cancellationToken);

    public void Dispose() => _schemaGate.Dispose();

    private async Task<TResult> RunAsync<TArgument, TResult>(
        string operation,
        RerunSafety rerun,
        Func<IOrderStore, TArgument, CancellationToken, Task<TResult>> call,
        TArgument argument,
        CancellationToken cancellationToken,
        bool abandonable = true)
    {
        using var telemetry = StoreTelemetry.Call(_system, operation);
        var context = ResilienceContextPool.Shared.Get(operation, cancellationToken);
        context.Properties.Set(StorePipeline.Facts, new StoreCallFacts(operation, rerun, _clock.GetTimestamp()));
        try
        {
            // Run as object: the retry and the breaker are strategies of object (one pipeline serves every
            // result type), and Polly bridges any other result type through two more async state machines
            // per strategy on every call that completes asynchronously (every write on SQLite's group commit).
            // The results are classes (a bool only for the probes), so nothing is boxed on the request path.
            return (TResult)(await _pipeline.ExecuteAsync<object?, (ResilientOrderStore Self, Func<IOrderStore, TArgument, CancellationToken, Task<TResult>> Call, TArgument Argument, bool Abandonable)>(
                static async (context, state) =>
                {
                    var self = state.Self;
                    var attemptToken = context.CancellationToken;
                    try
                    {
                        await self.EnsureSchemaAsync(attemptToken).ConfigureAwait(false);

                        var pending = state.Call(self._inner, state.Argument, attemptToken);

                        // WaitAsync abandons an attempt that ignores cancellation, so the bound holds even then.
                        // A stream cannot be abandoned (its reader would leak): it relies on the linked token.
                        return await (state.Abandonable ? pending.WaitAsync(attemptToken) : pending).ConfigureAwait(false);
                    }
                    catch (Exception fault) when (Classify(self._faults, fault) is var kind && kind != StoreFault.Permanent)
                    {
                        var partial = self._faults.IsPartialOutage(fault);
                        if (kind is StoreFault.Unreachable or StoreFault.Interrupted && !partial)
                        {
                            self._pool?.DropIdleConnections();
                        }

                        throw new TransientStoreFault(fault, kind) { PartialOutage = partial };
                    }
                },
                context,
                (this, call, argument, abandonable)).ConfigureAwait(false))!;
        }
        catch (Exception fault) when (fault is TimeoutRejectedException or TransientStoreFault or BrokenCircuitException)
        {
            // The caller gave up meanwhile: that is a cancellation, not an outage.
            cancellationToken.ThrowIfCancellationRequested();
            var unavailable = Unavailable(fault);
            telemetry?.Fail(fault is BrokenCircuitException ? "circuit_open" : StorePipeline.ErrorType(fault), unavailable.Message);
            throw unavailable;
        }
        catch (Exception fault) when (!cancellationToken.IsCancellationRequested && _faults.IsRefusal(fault))
        {
            // The engine refused the statement for good: a retry gets the same answer, so not an outage (no 503).
            var refused = new StoreRefusedException(StoreErrors.Describe(fault, _faults) ?? fault.Message, fault);
            telemetry?.Fail(fault.GetType().FullName!, refused.EngineError);
            throw refused;
        }
        catch (Exception fault) when (!cancellationToken.IsCancellationRequested && StoreErrors.Describe(fault, _faults) is { } engineError)
        {
            // An engine error the store does not classify (not transient, not an outcome the store answers itself):
            // still the store's fault, never the caller's and never a bug of the HTTP code, so a 503, not a 500.
            // Not retried and not counted by the breaker: nothing says a rerun would fare better.
            telemetry?.Fail(fault.GetType().FullName!, fault.Message);
            throw new StoreUnavailableException($"The order store failed: {engineError}", fault) { UnclassifiedEngineError = engineError };
        }
        catch (Exception fault)
        {
            telemetry?.Fail(fault.GetType().FullName!, fault.Message);
            throw;
        }
        finally
        {
            ResilienceContextPool.Shared.Return(context);
        }
    }

    // A key the clean-up forgot under a create's feet: nothing was written, and the rerun creates the order.
    private static StoreFault Classify(ITransientFaults faults, Exception fault) =>
        fault is Keys.IdempotencyKeyForgottenException ? StoreFault.RolledBack : faults.Classify(fault);

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

    private static StoreUnavailableException Unavailable(Exception fault) => fault switch
    {
        TimeoutRejectedException timeout =>
            new StoreUnavailableException($"The order store did not answer in time ({timeout.Timeout.TotalSeconds:0.#} s).", timeout),

        // RetryAfter is what is left of the break; null for a call turned away while the half-open probe runs.
        BrokenCircuitException broken =>
            new StoreUnavailableException("The circuit to the order store is open after repeated failures; the store is not being called.", broken, broken.RetryAfter),
        _ => new StoreUnavailableException($"The order store is unavailable: {fault.InnerException!.Message}", fault.InnerException),
    };

    // Enum.ToString allocates; these are the metric's attribute values.
    private static string OutcomeName(TransitionOutcome outcome) => outcome switch
    {
        TransitionOutcome.Applied => "applied",
        TransitionOutcome.NotFound => "not_found",
        TransitionOutcome.IllegalFromStatus => "illegal_from_status",
        TransitionOutcome.StaleVersion => "stale_version",
        TransitionOutcome.Declined => "declined",
        _ => outcome.ToString().ToLowerInvariant(),
    };
}
