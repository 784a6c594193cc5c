using System.Data.Common;
using System.Net.Sockets;
using System.Threading.Channels;
using NBomber.Contracts;
using NBomber.CSharp;
using OrderService.Load.Scenarios;
using OrderService.Testing;

namespace OrderService.Load.Shootout;

/// <summary>How the HTTP workflow behaves: the dirty-read probe's rate, connection and hold, and how long a step
/// keeps retrying an unreachable or unavailable service (zero except in crash runs, so that errors show).</summary>
/// <param name="HeldWrites">A new connection to the row's database; null where the probe cannot hold a write.</param>
public sealed record WorkflowSettings(double AbortRate, TimeSpan RetryFor, Func<DbConnection>? HeldWrites = null,
    TimeSpan HoldFor = default)
{
    /// <summary>Spreads held writes evenly: ticket × a prime walks every residue mod 1,000.</summary>
    public bool ShouldHold(long ticket) =>
        AbortRate > 0 && HeldWrites is not null && (ticket * 7919 % 1000) < AbortRate * 1000;
}

/// <summary>
/// The seed's workflow over HTTP: create -> pay -> ship -> complete, each part after create with
/// If-Match from the previous reply. With an abort rate, the harness holds a pay's write to some orders uncommitted
/// on its own connection, then rolls it back, while readers GET them: the dirty-read probe.
/// With several service replicas, part i of workflow w goes to replica (w + i) mod N, so every workflow crosses
/// processes: its Idempotency-Key, If-Match and event sequence must hold when each part lands somewhere else.
/// </summary>
public sealed class HttpWorkflow(IReadOnlyList<OrderApi> replicas, RunLedger ledger, WorkflowSettings settings)
{
    /// <summary>The workflow scenario's name in NBomber's reports and configs.</summary>
    public const string ScenarioName = "workflow";

    private const int CreatePart = 0;
    private const int PayPart = 1;
    private const int ShipPart = 2;
    private const int CompletePart = 3;

    private readonly Channel<HeldWriteProbe> _probes = Channel.CreateUnbounded<HeldWriteProbe>();
    private Task _workflowsDone = Task.CompletedTask;
    private CancellationToken _cancellation;

    public HttpWorkflow(OrderApi api, RunLedger ledger, WorkflowSettings settings)
        : this([api], ledger, settings)
    {
    }

    /// <summary>The replica that serves part <paramref name="part"/> of workflow <paramref name="ticket"/>.</summary>
    public static int ReplicaFor(long ticket, int part, int replicaCount) => (int)((ticket + part) % Math.Max(1, replicaCount));

    private OrderApi Api(long ticket, int part) => replicas[ReplicaFor(ticket, part, replicas.Count)];

    /// <summary>The NBomber scenario of exactly the ledger's workflows: create, pay, ship and complete as steps.</summary>
    public ClosedScenario Workflow(int copies, CancellationToken cancellationToken, TimeSpan? during = null)
    {
        _cancellation = cancellationToken;
        return new ClosedScenario(ScenarioName, copies, ledger.Workflows, RunAsync, during);
    }

    /// <summary>The dirty-read probe's readers beside <paramref name="workflow"/>, stopped when it is done.</summary>
    public ScenarioProps Readers(ClosedScenario workflow, int copies)
    {
        const string name = "dirty-read-probe";
        _workflowsDone = workflow.Drained;
        return Scenario.Create(name, ReadAsync)
            .WithoutWarmUp()
            .WithRestartIterationOnFail(false)
            .WithMaxFailCount(ClosedScenario.MaxFailCount)
            .WithLoadSimulations(Simulation.KeepConstant(copies, ClosedScenario.Unbounded));
    }

    private async Task<Response<object>> RunAsync(IScenarioContext context, long ticket)
    {
        var cancellationToken = _cancellation;
        ledger.CreateAttempted();
        ApiReply created = default;
        var create = await Steps.RunAsync("create", context, async () =>
        {
            (created, _) = await SendAsync(() => Api(ticket, CreatePart).CreateAsync(ledger.CustomerFor(ticket), ledger.IdempotencyKeyFor(ticket), cancellationToken), cancellationToken);
            return created.AsStep();
        }, cancellationToken);
        if (create.IsError)
        {
            return create;
        }

        var id = created.OrderId;
        var version = created.Version;
        ledger.CreatesAcknowledged[id] = 0;
        if (settings.ShouldHold(ticket))
        {
            var held = await HoldAsync(context, id);
            if (held.IsError)
            {
                return held;
            }
        }

        var reference = $"PAY-{ticket}";
        (var paid, version) = await TransitionAsync(context, "pay", id, version, "Paid", Api(ticket, PayPart), (api, v) => api.PayAsync(id, v, reference, cancellationToken));
        if (paid.IsError)
        {
            return paid;
        }

        (var shipped, version) = await TransitionAsync(context, "ship", id, version, "Shipped", Api(ticket, ShipPart), (api, v) => api.ShipAsync(id, v, $"TRK{ticket}", cancellationToken));
        if (shipped.IsError)
        {
            return shipped;
        }

        (var completed, _) = await TransitionAsync(context, "complete", id, version, "Completed", Api(ticket, CompletePart), (api, v) => api.CompleteAsync(id, v, cancellationToken));
        if (completed.IsError)
        {
            return completed;
        }

        ledger.WorkflowsAcknowledged[id] = 0;
        return Steps.Ok();
    }

    private async Task<Response<object>> HoldAsync(IScenarioContext context, Guid id)
    {
        var probe = new HeldWriteProbe(id);
        ledger.WriteHeld();
        _probes.Writer.TryWrite(probe);
        var held = await Steps.RunAsync("pay-held", context, async () =>
        {
            await using var connection = settings.HeldWrites!();
            await connection.OpenAsync(_cancellation);
            return await HeldPay.HoldAsync(connection, id, () => Task.Delay(settings.HoldFor, _cancellation),
                _cancellation)
                ? Steps.Ok()
                : Steps.Fail(0, $"order {id} was not Created when its pay was to be held");
        }, _cancellation);
        await probe.SettleAsync();
        return held;
    }

    /// <summary>
    /// One If-Match transition. After a retry (a crash run), a 409 may mean our own earlier attempt
    /// committed but its reply was lost: a re-read that shows exactly the state we asked for settles it.
    /// </summary>
    private async Task<(Response<object> Response, int Version)> TransitionAsync(
        IScenarioContext context, string step, Guid id, int version, string target, OrderApi api, Func<OrderApi, int, Task<ApiReply>> send)
    {
        var newVersion = version;
        var response = await Steps.RunAsync(step, context, async () =>
        {
            var (reply, attempts) = await SendAsync(() => send(api, version), _cancellation);
            if (reply.IsSuccess)
            {
                newVersion = reply.Version;
                return reply.AsStep();
            }

            if (reply.StatusCode == 409 && attempts > 1)
            {
                var (current, _) = await SendAsync(() => api.GetAsync(id, _cancellation), _cancellation);
                if (current.IsSuccess && current.OrderStatus == target && current.Version == version + 1)
                {
                    newVersion = current.Version;
                    return current.AsStep();
                }
            }

            return reply.AsStep();
        }, _cancellation);
        return (response, newVersion);
    }

    /// <summary>Retries connection failures and 503s until <see cref="WorkflowSettings.RetryFor"/> runs out.</summary>
    private async Task<(ApiReply Reply, int Attempts)> SendAsync(Func<Task<ApiReply>> send, CancellationToken cancellationToken)
    {
        var deadline = DateTime.UtcNow + settings.RetryFor;
        for (var attempt = 1; ; attempt++)
        {
            var pause = TimeSpan.FromMilliseconds(Math.Min(1000, 50 * attempt));
            try
            {
                var reply = await send();
                if (reply.StatusCode != 503 || DateTime.UtcNow >= deadline)
                {
                    return (reply, attempt);
                }

                pause = reply.RetryAfter is { } after && after < pause ? after : pause;
            }
            catch (Exception exception) when (IsConnectionFailure(exception, cancellationToken) && DateTime.UtcNow < deadline)
            {
                // The service or its database is down (the crash variant): try again shortly.
            }

            await Task.Delay(pause, cancellationToken);
        }
    }

    private static bool IsConnectionFailure(Exception exception, CancellationToken cancellationToken) => exception switch
    {
        HttpRequestException => true,
        SocketException => true,
        TaskCanceledException => !cancellationToken.IsCancellationRequested,
        _ => false,
    };

    private async Task<IResponse> ReadAsync(IScenarioContext context)
    {
        if (!_probes.Reader.TryRead(out var probe))
        {
            // Until a probe arrives or the workflows are done (then this is the reader's last iteration).
            await Task.WhenAny(_probes.Reader.WaitToReadAsync(_cancellation).AsTask(), _workflowsDone);
            return Steps.Ok();
        }

        while (probe.TryBeginRead())
        {
            var sawPaid = false;
            try
            {
                await Steps.RunAsync("probe-read", context, async () =>
                {
                    var reply = await replicas[(int)(context.InvocationNumber % replicas.Count)].GetAsync(probe.OrderId, _cancellation);
                    sawPaid = reply.OrderStatus == "Paid";
                    return reply.AsStep();
                }, _cancellation);
            }
            finally
            {
                probe.EndRead();
            }

            ledger.ProbeRead(sawPaid);
        }

        return Steps.Ok();
    }
}
