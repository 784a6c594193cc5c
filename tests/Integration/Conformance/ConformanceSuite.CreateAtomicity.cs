using System.Net;
using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Conformance;

// A create is all of its rows or none (issue 13): an acknowledged order always has its lines and its Created
// event, seen through the port AND in the database rows themselves, and a create that fails part-way leaves
// nothing behind. On Babelfish a create once answered 201 and wrote neither lines nor event.
public abstract partial class ConformanceSuite<TStore>
{
    [Fact]
    public async Task A_created_order_has_its_lines_and_its_Created_event_in_the_port_and_in_the_rows()
    {
        // Every create statement the store has: without and with an idempotency key, through the port and HTTP.
        var plain = NewOrder();
        (await Port.CreateAsync(new NewOrder(plain, null, Hash("plain")), Ct)).Outcome.ShouldBe(CreateOutcome.Created);
        var keyed = await Port.CreateAsync(new NewOrder(NewOrder(), Ids.NewKey(), Hash("keyed")), Ct);
        keyed.Outcome.ShouldBe(CreateOutcome.Created);
        var ids = new List<Guid> { plain.Id, keyed.Order!.Id };
        foreach (var key in (string?[])[null, Ids.NewKey()])
        {
            using var response = await Api.CreateAsync(Ids.NewCustomer(), [new("SKU-1", 3, 12.34m), new("SKU-2", 1, 0.5m)], key);
            ids.Add((await OrderApi.ReadOrderAsync(response, HttpStatusCode.Created)).Id);
        }

        foreach (var id in ids)
        {
            var read = await Port.GetAsync(id, Ct);
            read.ShouldNotBeNull();
            read.Lines.Count.ShouldBe(2, $"order {id}: the port must return both lines");
            read.Events.Select(e => (e.Sequence, e.Type)).ShouldBe([(1, Transitions.CreatedEventType)], $"order {id}: the port must return the Created event");

            var rows = await Store.ReadStoredRowsAsync(Service.ConnectionString, id, Ct);
            rows.OrderRow.ShouldBeTrue($"order {id}: {rows}");
            rows.Lines.ShouldBe(2, $"order {id}: the database must hold both lines ({rows})");
            rows.EventSequences.ShouldBe([1], $"order {id}: the database must hold the Created event ({rows})");
        }
    }

    [Fact]
    public async Task A_create_that_fails_at_its_last_write_leaves_nothing_behind()
    {
        var prefix = $"planted-{Guid.NewGuid():N}"[..16] + "-";
        var order = NewOrder(prefix + "plain");
        var keyed = NewOrder(prefix + "keyed");
        var key = Ids.NewKey();

        await Port.CheckReadyAsync(Ct); // the service creates its schema on first use: the trigger needs the tables
        await using (await Store.PlantCreateFailureAsync(Service.ConnectionString, prefix, Ct))
        {
            await Should.ThrowAsync<Exception>(() => Port.CreateAsync(new NewOrder(order, null, Hash("plain")), Ct));
            await Should.ThrowAsync<Exception>(() => Port.CreateAsync(new NewOrder(keyed, key, Hash("keyed")), Ct));

            foreach (var id in (Guid[])[order.Id, keyed.Id])
            {
                (await Port.GetAsync(id, Ct)).ShouldBeNull($"order {id} failed to be created, so it must not exist");
                var rows = await Store.ReadStoredRowsAsync(Service.ConnectionString, id, Ct);
                (rows.OrderRow, rows.Lines, rows.EventSequences.Count).ShouldBe((false, 0, 0), $"order {id} must have no rows at all: {rows}");
            }

            // By customer too: a store whose key decides a keyed create's id (Citus) made it under another id.
            (await Port.ListByCustomerAsync(keyed.CustomerId, null, 10, Ct).ToListAsync(Ct)).ShouldBeEmpty();
        }

        // Nothing was left half-written: once the fault is gone, the same creates are new (a left-over order
        // row would make the first a replay, a left-over key the second), and complete.
        (await Port.CreateAsync(new NewOrder(order, null, Hash("plain")), Ct)).Outcome.ShouldBe(CreateOutcome.Created);
        var keyedCreate = await Port.CreateAsync(new NewOrder(keyed, key, Hash("keyed")), Ct);
        keyedCreate.Outcome.ShouldBe(CreateOutcome.Created);
        foreach (var expected in (Order[])[order, keyedCreate.Order!])
        {
            (await Port.GetAsync(expected.Id, Ct)).ShouldBeSameOrderAs(expected);
            var rows = await Store.ReadStoredRowsAsync(Service.ConnectionString, expected.Id, Ct);
            (rows.OrderRow, rows.Lines).ShouldBe((true, 2), rows.ToString());
            rows.EventSequences.ShouldBe([1], rows.ToString());
        }
    }
}
