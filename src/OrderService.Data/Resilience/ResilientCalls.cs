using Polly;
using Polly.CircuitBreaker;
using Polly.Timeout;

namespace OrderService.Data.Resilience;

/// <summary>Every call to the store: bounded, retried, behind the circuit; what still fails is a 503.</summary>
public sealed partial class ResilientCalls(IStoreSchema schema, ITransientFaults faults, IConnectionPool? pool,
    ResiliencePipeline pipeline, string system) : IDisposable
{
    private readonly ITransientFaults _faults = faults;
    private readonly IConnectionPool? _pool = pool;
    private readonly SemaphoreSlim _schemaGate = new(1, 1);
    private volatile bool _schemaReady;

    /// <summary>The store's db.system name, as the spans and meters carry it.</summary>
    public string System => system;

    public void Dispose() => _schemaGate.Dispose();

    /// <summary>
    /// One call of <paramref name="operation"/>, bounded, retried when <paramref name="rerun"/> allows.
    /// </summary>
    public async Task<TResult> RunAsync<TTarget, TArgument, TResult>(
        string operation,
        RerunSafety rerun,
        Func<TTarget, TArgument, CancellationToken, Task<TResult>> call,
        TTarget target,
        TArgument argument,
        CancellationToken cancellationToken,
        bool abandonable = true)
    {
        using var telemetry = StoreTelemetry.Call(system, operation);
        var context = ResilienceContextPool.Shared.Get(operation, cancellationToken);
        context.Properties.Set(StorePipeline.Facts, new StoreCallFacts(operation, rerun));
        try
        {
            // Run as object: one pipeline serves every result type, with no per-type bridge in Polly.
            return (TResult)(await pipeline.ExecuteAsync<object?,
                (ResilientCalls Self, Func<TTarget, TArgument, CancellationToken, Task<TResult>> Call, TTarget Target,
                TArgument Argument, bool Abandonable)>(
                static async (context, state) =>
                {
                    var self = state.Self;
                    var attemptToken = context.CancellationToken;
                    try
                    {
                        await self.EnsureSchemaAsync(attemptToken);

                        var pending = state.Call(state.Target, state.Argument, attemptToken);

                        // WaitAsync abandons an attempt that ignores cancellation, so the bound holds even then.
                        return await (state.Abandonable ? pending.WaitAsync(attemptToken) : pending);
                    }
                    catch (Exception fault) when (Classify(self._faults, fault) is var kind
                        && kind != StoreFault.Permanent)
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
                (this, call, target, argument, abandonable)))!;
        }
        catch (Exception fault) when (
            fault is TimeoutRejectedException or TransientStoreFault or BrokenCircuitException)
        {
            // The caller gave up meanwhile: that is a cancellation, not an outage.
            cancellationToken.ThrowIfCancellationRequested();
            var unavailable = Unavailable(fault);
            telemetry?.Fail(fault is BrokenCircuitException ? "circuit_open" : StorePipeline.ErrorType(fault),
                unavailable.Message);
            throw unavailable;
        }
        catch (Exception fault) when (!cancellationToken.IsCancellationRequested
            && Settle(fault, "failed") is { } settled)
        {
            telemetry?.Fail(fault.GetType().FullName!, settled.Message);
            throw settled;
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

    /// <summary>
    /// An engine's error: a refusal, for good (a 500: a retry gets the same answer), or else a 503 naming the error
    /// that the store does not classify. Null for any other exception.
    /// </summary>
    private Exception? Settle(Exception fault, string failed)
    {
        if (_faults.IsRefusal(fault))
        {
            return new StoreRefusedException(StoreErrors.Describe(fault, _faults) ?? fault.Message, fault);
        }

        return StoreErrors.Describe(fault, _faults) is { } engineError
            ? new StoreUnavailableException($"The order store {failed}: {engineError}", fault)
            {
                UnclassifiedEngineError = engineError,
            }
            : null;
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

        await _schemaGate.WaitAsync(cancellationToken);
        try
        {
            if (!_schemaReady)
            {
                await schema.EnsureCreatedAsync(cancellationToken).WaitAsync(cancellationToken);
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
            new StoreUnavailableException(
                $"The order store did not answer in time ({timeout.Timeout.TotalSeconds:0.#} s).", timeout),

        // RetryAfter is what is left of the break; null for a call turned away while the half-open probe runs.
        BrokenCircuitException broken =>
            new StoreUnavailableException(
                "The circuit to the order store is open after repeated failures; the store is not being called.",
                broken, broken.RetryAfter),
        _ => new StoreUnavailableException($"The order store is unavailable: {fault.InnerException!.Message}",
            fault.InnerException),
    };
}
