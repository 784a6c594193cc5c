using System.Globalization;
using OrderService.Data;
using OrderService.Data.Orders;
using NBomber.Contracts;
using OrderService.Load.Scenarios;

namespace OrderService.Load.Shootout;

/// <summary>
/// The raw limit: the same four parts straight through the store port, at the same concurrency,
/// with no HTTP, JSON or ASP.NET Core in between. HTTP wf/s divided by this is the service's overhead.
/// </summary>
public sealed class RawWorkflow(IOrderStore store, RunLedger ledger, CancellationToken cancellationToken)
{
    private static readonly OrderLine[] Lines = [new("SKU-RED-42", 2, 19.99m), new("SKU-BLUE-7", 1, 5.50m)];

    public ClosedScenario Workflow(int copies) => new("raw-workflow", copies, ledger.Workflows, RunAsync);

    private async Task<Response<object>> RunAsync(IScenarioContext context, long ticket)
    {
        Order? order = null;
        var create = await Steps.RunAsync("create", context, async () =>
        {
            var draft = Transitions.Create(Guid.CreateVersion7(), ledger.CustomerFor(ticket), Lines, Timestamps.Now(TimeProvider.System));
            var hash = ticket.ToString("x16", CultureInfo.InvariantCulture);
            var result = await store.CreateAsync(new NewOrder(draft, null, hash), cancellationToken);
            order = result.Order;
            return result.Outcome == CreateOutcome.Created ? Steps.Ok(201) : Steps.Fail(409, result.Outcome.ToString());
        }, cancellationToken);
        if (create.IsError || order is null)
        {
            return create;
        }

        var steps = new (string Name, OrderAction Action, OrderEventData Data)[]
        {
            ("pay", OrderAction.Pay, new OrderEventData(PaymentReference: $"PAY-{ticket}")),
            ("ship", OrderAction.Ship, new OrderEventData(Carrier: "LoadPost", TrackingNumber: $"TRK{ticket}")),
            ("complete", OrderAction.Complete, new OrderEventData()),
        };
        foreach (var (name, action, data) in steps)
        {
            var current = order;
            var step = await Steps.RunAsync(name, context, async () =>
            {
                var command = new TransitionCommand(current.Id, action, current.Version, Timestamps.Now(TimeProvider.System), data);
                var result = await store.TransitionAsync(command, cancellationToken);
                order = result.Order;
                return result.Outcome == TransitionOutcome.Applied ? Steps.Ok(200) : Steps.Fail(409, result.Outcome.ToString());
            }, cancellationToken);
            if (step.IsError || order is null)
            {
                return step.IsError ? step : Steps.Fail(500, "no order returned");
            }
        }

        ledger.WorkflowsAcknowledged[order.Id] = 0;
        return Steps.Ok();
    }
}
