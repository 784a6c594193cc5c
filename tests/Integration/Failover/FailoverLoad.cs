using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;

namespace OrderService.Integration.Tests.Failover;

/// <summary>
/// Whole workflows (create, pay, ship, complete) from a few concurrent clients that behave as the contract asks: every
/// step carries its own Idempotency-Key, a 503 is retried with the same key after its Retry-After, and nothing else is
/// retried. It records every answer and every step the service acknowledged, for the audit. Bounded in workflows,
/// in attempts per step and in time.
/// </summary>
internal sealed class FailoverLoad(OrderApi api, int clients, int maxWorkflows) : IDisposable
{
    /// <summary>The canonical events of a workflow, in order: an order's events are always a prefix of these.</summary>
    public static readonly string[] EventTypes = ["Created", "Paid", "Shipped", "Completed"];

    private const int AttemptsPerStep = 40;
    private static readonly TimeSpan LongestWait = TimeSpan.FromSeconds(5);

    private static readonly (string Action, object? Body)[] Transitions =
    [
        ("pay", new { paymentReference = "PAY-failover" }),
        ("ship", new { carrier = "Post", trackingNumber = "TRK-failover" }),
        ("complete", null),
    ];

    private readonly CancellationTokenSource _stop = new();
    private readonly ConcurrentQueue<Answer> _answers = new();
    private readonly ConcurrentDictionary<Guid, int> _acknowledged = new();
    private int _started;
    private Task? _run;

    /// <summary>Every answer: when its request started and ended (Stopwatch ticks), the step, the status, whether a 503 said Retry-After.</summary>
    public IReadOnlyCollection<Answer> Answers => _answers;

    /// <summary>Per order: how many of its events the service acknowledged (1 = created, 4 = completed).</summary>
    public IReadOnlyDictionary<Guid, int> Acknowledged => _acknowledged;

    public bool Stopped => _stop.IsCancellationRequested;

    public int CompletedWorkflows => _acknowledged.Values.Count(steps => steps == EventTypes.Length);

    public void Start() => _run = Task.WhenAll(Enumerable.Range(0, clients).Select(_ => Task.Run(ClientAsync)));

    /// <summary>Waits (bounded) until an answer started after <paramref name="since"/> matches, and returns it.</summary>
    public async Task<Answer> WaitForAsync(Func<Answer, bool> match, long since, TimeSpan bound, CancellationToken cancellationToken)
    {
        var deadline = Stopwatch.GetTimestamp() + (long)(bound.TotalSeconds * Stopwatch.Frequency);
        while (Stopwatch.GetTimestamp() < deadline)
        {
            if (_answers.Where(a => a.Started >= since && match(a)).OrderBy(a => a.Started).FirstOrDefault() is { } found)
            {
                return found;
            }

            await Task.Delay(50, cancellationToken);
        }

        throw new TimeoutException($"No matching answer within {bound.TotalSeconds:0} s; answers since: " +
            string.Join(", ", _answers.Where(a => a.Started >= since).GroupBy(a => a.Status).Select(g => $"{g.Count()} x {g.Key}")));
    }

    /// <summary>Stops the clients (a step in flight finishes its current attempt) and waits for them, bounded.</summary>
    public async Task StopAsync()
    {
        await _stop.CancelAsync();
        await _run!.WaitAsync(TimeSpan.FromSeconds(30));
    }

    public void Dispose() => _stop.Dispose();

    private async Task ClientAsync()
    {
        while (!_stop.IsCancellationRequested && Interlocked.Increment(ref _started) <= maxWorkflows)
        {
            var customer = Ids.NewCustomer();
            var created = await StepAsync("create", () => api.CreateAsync(customer, idempotencyKey: $"{customer}-create"));
            if (created is null)
            {
                continue;
            }

            var order = await OrderApi.ReadOrderAsync(created, HttpStatusCode.Created);
            created.Dispose();
            _acknowledged[order.Id] = 1;
            for (var i = 0; i < Transitions.Length; i++)
            {
                var (action, body) = Transitions[i];
                using var answer = await StepAsync(action, () => api.TransitionAsync(order.Id, action, body, idempotencyKey: $"{customer}-{action}"));
                if (answer is null)
                {
                    break;
                }

                _acknowledged[order.Id] = i + 2;
            }
        }
    }

    /// <summary>One step until it succeeds; null when the load stops or the attempts run out first.</summary>
    private async Task<HttpResponseMessage?> StepAsync(string step, Func<Task<HttpResponseMessage>> send)
    {
        for (var attempt = 0; attempt < AttemptsPerStep && !_stop.IsCancellationRequested; attempt++)
        {
            var started = Stopwatch.GetTimestamp();
            HttpResponseMessage response;
            try
            {
                response = await send();
            }
            catch (HttpRequestException failed)
            {
                _answers.Enqueue(new Answer(started, Stopwatch.GetTimestamp(), step, 0, false, failed.Message));
                return null;
            }

            var status = (int)response.StatusCode;
            var retryAfter = response.Headers.RetryAfter?.Delta;
            var detail = status is 200 or 201 or 503 ? null : await response.Content.ReadAsStringAsync();
            _answers.Enqueue(new Answer(started, Stopwatch.GetTimestamp(), step, status, retryAfter is not null, detail));
            if (status is 200 or 201)
            {
                return response;
            }

            response.Dispose();
            if (status != 503 || retryAfter is null)
            {
                return null; // the test fails on it: only a 503 with Retry-After is an answer to retry
            }

            try
            {
                await Task.Delay(retryAfter.Value < LongestWait ? retryAfter.Value : LongestWait, _stop.Token);
            }
            catch (OperationCanceledException)
            {
                return null;
            }
        }

        return null;
    }

    /// <summary>
    /// The longest time after <paramref name="since"/> in which no request succeeded: from the last success that ended
    /// before the gap (or <paramref name="since"/>) to the next one that ended. What a client saw of the outage.
    /// </summary>
    public TimeSpan LongestGapWithoutSuccess(long since)
    {
        var ends = _answers.Where(a => a.Status is 200 or 201).Select(a => a.Finished).Order().ToList();
        var previous = ends.LastOrDefault(end => end <= since, since);
        var longest = 0L;
        foreach (var end in ends.Where(end => end > since))
        {
            longest = Math.Max(longest, end - previous);
            previous = end;
        }

        return Stopwatch.GetElapsedTime(0, longest);
    }

    internal sealed record Answer(long Started, long Finished, string Step, int Status, bool RetryAfter, string? Detail);
}
