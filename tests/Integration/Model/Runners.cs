using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using OrderService.Validation;
using Xunit;

namespace OrderService.Integration.Tests.Model;

/// <summary>Runs commands against the real service and reports what it answered as an <see cref="Observation"/>.</summary>
public interface ICommandRunner
{
    Task<Observation> RunAsync(Command command);
}

/// <summary>
/// What both runners share: which real order each slot is, and the version the runner last saw of it (from the
/// answers themselves, never from the model, so a wrong answer cannot be hidden by the model's bookkeeping).
/// Each run has its own customer and key prefix: runs on one database never see each other's orders or keys.
/// </summary>
public abstract class RunnerBase
{
    private readonly List<Guid> _created = [];
    private readonly Dictionary<Guid, int> _versions = [];
    private readonly Dictionary<int, Guid> _missing = [];
    private readonly string _keyPrefix = "model-" + Guid.NewGuid().ToString("N")[..12];

    protected string Customer { get; } = Ids.NewCustomer();

    protected static CancellationToken Ct => TestContext.Current.CancellationToken;

    protected string? KeyOf(int? key) => key is { } k ? $"{_keyPrefix}-k{k}" : null;

    /// <summary>The slot's order, or an id no order has (a slot not created yet).</summary>
    protected Guid IdOf(int slot) => slot < _created.Count ? _created[slot] : _missing.TryGetValue(slot, out var id) ? id : _missing[slot] = Guid.CreateVersion7();

    protected int VersionOf(Guid id) => _versions.GetValueOrDefault(id, 1);

    protected void Created(Guid id)
    {
        _created.Add(id);
        _versions[id] = 1;
    }

    protected void Saw(Guid id, int version) => _versions[id] = version;

    protected static OrderLine[] Lines(int body) => body == 0
        ? [new OrderLine("SKU-1", 2, 19.99m)]
        : [new OrderLine("SKU-2", 1, 5m), new OrderLine("SKU-3", 3, 0.5m)];

    protected static OrderEventData Data(OrderAction action, int data) => action switch
    {
        OrderAction.Pay => new OrderEventData(PaymentReference: Variants.PaymentReference(data)),
        OrderAction.Ship => new OrderEventData(Carrier: Variants.Carrier, TrackingNumber: Variants.TrackingNumber(data)),
        OrderAction.Cancel => new OrderEventData(Reason: Variants.Reason(data)),
        _ => new OrderEventData(),
    };
}

/// <summary>Through HTTP, as a client would: headers, bodies, problem types, ETags.</summary>
public sealed class HttpRunner(OrderApi api) : RunnerBase, ICommandRunner
{
    public async Task<Observation> RunAsync(Command command)
    {
        switch (command)
        {
            case CreateCommand create:
            {
                var lines = Lines(create.Body).Select(l => new OrderLineDto(l.Sku, l.Quantity, l.UnitPrice)).ToArray();
                using var response = await api.CreateAsync(Customer, lines, KeyOf(create.Key));
                var (observation, order) = await ObserveAsync(response);
                if (observation.Outcome == "201")
                {
                    Created(order!.Id);
                }

                return observation;
            }

            case StepCommand step:
            {
                var id = IdOf(step.Slot);
                var data = Data(step.Action, step.Data);
                object body = step.Action switch
                {
                    OrderAction.Pay => data.PaymentReference is { } reference ? new { paymentReference = reference } : new { },
                    OrderAction.Ship => new { carrier = data.Carrier, trackingNumber = data.TrackingNumber },
                    OrderAction.Cancel => data.Reason is { } reason ? new { reason } : new { },
                    _ => new { },
                };
                using var response = await api.TransitionAsync(id, step.Action.ToString().ToLowerInvariant(), body, Variants.IfMatch(step.IfMatch, VersionOf(id)), KeyOf(step.Key));
                return (await ObserveAsync(response, id)).Observation;
            }

            case GetCommand get:
            {
                var id = IdOf(get.Slot);
                using var response = await api.GetAsync($"/orders/{id}");
                return (await ObserveAsync(response, id)).Observation;
            }

            default:
                throw new ArgumentOutOfRangeException(nameof(command), command, null);
        }
    }

    private async Task<(Observation Observation, OrderDto? Order)> ObserveAsync(HttpResponseMessage response, Guid? id = null)
    {
        var code = (int)response.StatusCode;
        if (code >= 400)
        {
            var mediaType = response.Content.Headers.ContentType?.MediaType;
            if (mediaType != "application/problem+json")
            {
                return (new Observation($"{code} with {mediaType ?? "no content type"}, not application/problem+json"), null);
            }

            var problem = JsonNode.Parse(await response.Content.ReadAsStringAsync(Ct));
            var type = problem?["type"]?.GetValue<string>();
            return (new Observation(response.StatusCode == HttpStatusCode.Conflict
                ? type switch
                {
                    "urn:orderservice:problem:stale-version" => "409 stale",
                    "urn:orderservice:problem:illegal-transition" => "409 illegal",
                    _ => $"409 of type {type}",
                }
                : code.ToString(System.Globalization.CultureInfo.InvariantCulture)), null);
        }

        var order = await response.Content.ReadFromJsonAsync<OrderDto>(OrderApi.Json, Ct);
        var replayed = response.Headers.TryGetValues("Idempotent-Replayed", out var values) && values.Single() == "true";
        var outcome = code.ToString(System.Globalization.CultureInfo.InvariantCulture) + (replayed ? " replayed" : "");
        if (response.Headers.ETag?.Tag != $"\"{order!.Version}\"")
        {
            outcome += $" with ETag {response.Headers.ETag?.Tag ?? "none"} for version {order.Version}";
        }

        if (id is { } known && !replayed)
        {
            Saw(known, order.Version);
        }

        return (new Observation(outcome, Observation.DescribeOrder(order.Status, order.Version, order.Events.Select(e =>
            Observation.DescribeEvent(e.Sequence, e.Type, e.Data?.PaymentReference, e.Data?.Carrier, e.Data?.TrackingNumber, e.Data?.Reason)))), order);
    }
}

/// <summary>Straight through the store port, computing the request hashes as the API does.</summary>
public sealed class PortRunner(IOrderStore store) : RunnerBase, ICommandRunner
{
    public async Task<Observation> RunAsync(Command command)
    {
        var now = Timestamps.Now(TimeProvider.System);
        switch (command)
        {
            case CreateCommand create:
            {
                var lines = Lines(create.Body);
                var key = KeyOf(create.Key);
                var order = Transitions.Create(Guid.CreateVersion7(now), Customer, lines, now);
                var result = await store.CreateAsync(new NewOrder(order, key, key is null ? string.Empty : RequestFingerprint.Of(Customer, lines)), Ct);
                switch (result.Outcome)
                {
                    case CreateOutcome.Created:
                        Created(result.Order!.Id);
                        return Observe("201", result.Order);
                    case CreateOutcome.Replayed:
                        return Observe("201 replayed", result.Order!);
                    default:
                        return new Observation("422");
                }
            }

            case StepCommand step:
            {
                var id = IdOf(step.Slot);
                var key = KeyOf(step.Key);
                var data = Data(step.Action, step.Data);
                var transition = new TransitionCommand(id, step.Action, Variants.ExpectedVersion(step.IfMatch, VersionOf(id)), now, data)
                {
                    IdempotencyKey = key,
                    RequestHash = key is null ? string.Empty : RequestFingerprint.OfTransition(id, step.Action, data),
                };
                var result = await store.TransitionAsync(transition, Ct);
                switch (result.Outcome)
                {
                    case TransitionOutcome.Applied:
                        Saw(id, result.Order!.Version);
                        return Observe("200", result.Order);
                    case TransitionOutcome.Replayed:
                        return Observe("200 replayed", result.Order!);
                    case TransitionOutcome.NotFound:
                        return new Observation("404");
                    case TransitionOutcome.StaleVersion:
                        return new Observation("409 stale");
                    case TransitionOutcome.IllegalFromStatus:
                        return new Observation("409 illegal");
                    case TransitionOutcome.KeyReusedWithDifferentRequest:
                        return new Observation("422");
                    default:
                        return new Observation($"outcome {result.Outcome}");
                }
            }

            case GetCommand get:
            {
                var id = IdOf(get.Slot);
                var order = await store.GetAsync(id, Ct);
                if (order is not null)
                {
                    Saw(id, order.Version);
                }

                return order is null ? new Observation("404") : Observe("200", order);
            }

            default:
                throw new ArgumentOutOfRangeException(nameof(command), command, null);
        }
    }

    private static Observation Observe(string outcome, Order order) =>
        new(outcome, Observation.DescribeOrder(order.Status.ToString(), order.Version, order.Events.Select(e =>
            Observation.DescribeEvent(e.Sequence, e.Type, e.Data.PaymentReference, e.Data.Carrier, e.Data.TrackingNumber, e.Data.Reason))));
}
