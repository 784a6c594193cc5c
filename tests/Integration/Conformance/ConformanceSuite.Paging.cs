using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Conformance;

// Keyset paging of the customer listing: a walk finds every order exactly once, however the pages fall on
// ties of created_at and whatever is inserted while it walks.
public abstract partial class ConformanceSuite<TStore>
{
    private static readonly DateTimeOffset PagingEpoch = new(2025, 6, 1, 12, 0, 0, TimeSpan.Zero);

    [Fact]
    public async Task Walking_2500_orders_page_by_page_finds_each_exactly_once()
    {
        var customer = Ids.NewCustomer();

        // Three orders share every created_at, so ties straddle page boundaries (100 and 1,000 are not multiples of 3).
        var orders = await InsertAsync(customer, 2_500, i => PagingEpoch.AddTicks(10 * (i / 3)));
        foreach (var order in orders.Where((_, i) => i % 10 == 0))
        {
            (await Port.TransitionAsync(new TransitionCommand(order.Id, OrderAction.Pay, null, order.CreatedAt.AddSeconds(1), new()), Ct)).Outcome.ShouldBe(TransitionOutcome.Applied);
        }

        var pages = await Api.WalkAsync($"/customers/{customer}/orders?limit=100");
        pages.Count.ShouldBe(25);
        pages.ShouldAllBe(p => p.Count == 100);
        var walked = pages.SelectMany(p => p).ToList();
        walked.Select(o => o.Id).ShouldBeUnique();
        walked.Select(o => o.Id).Order().ShouldBe(orders.Select(o => o.Id).Order());
        walked.Select(o => o.CreatedAt).ShouldBeInOrder(SortDirection.Descending);

        // Other page sizes cut the ties elsewhere and must give the very same sequence.
        (await PortWalkAsync(customer, 1_000)).ShouldBe(walked.Select(o => o.Id));
        (await PortWalkAsync(customer, 7)).ShouldBe(walked.Select(o => o.Id));

        var paid = (await Api.WalkAsync($"/customers/{customer}/orders?status=Paid&limit=100")).SelectMany(p => p).ToList();
        paid.Select(o => o.Id).ShouldBe(walked.Where(o => o.Status == "Paid").Select(o => o.Id));
        paid.Count.ShouldBe(250);
    }

    [Fact]
    public async Task A_walk_during_concurrent_inserts_returns_every_order_that_was_there_exactly_once()
    {
        var customer = Ids.NewCustomer();
        var existing = await InsertAsync(customer, 300, i => PagingEpoch.AddTicks(10 * (i / 2)));
        using var stop = new CancellationTokenSource();
        var inserted = 0;
        Task? inserter = null;

        // After the first page, new orders (the newest, stamped now) keep arriving: between pages and all along.
        var pages = await Api.WalkAsync($"/customers/{customer}/orders?limit=20", async page =>
        {
            inserter ??= Task.Run(async () =>
            {
                while (!stop.IsCancellationRequested)
                {
                    await Api.CreateOrderAsync(customer);
                    Interlocked.Increment(ref inserted);
                }
            }, Ct);
            await Api.CreateOrderAsync(customer);
            Interlocked.Increment(ref inserted);
        });
        await stop.CancelAsync();
        await inserter!;

        var walked = pages.SelectMany(p => p).Select(o => o.Id).ToList();
        walked.ShouldBeUnique();
        walked.Order().ShouldBe(existing.Select(o => o.Id).Order(), "the walk sees exactly the orders that were there when it began");
        pages.Count.ShouldBe(15);
        inserted.ShouldBeGreaterThan(15);
        (await PortWalkAsync(customer, 1_000)).Count
            .ShouldBe(300 + inserted, "the new orders are there for the next walk");
    }

    /// <summary>A customer's order ids, walked through the port page by page; again if the store fails.</summary>
    private Task<List<Guid>> PortWalkAsync(string customer, int pageSize) => RetryUnavailableAsync(
        () => Port.ListAllByCustomerAsync(customer, null, pageSize, Ct).Select(o => o.Id).ToListAsync(Ct).AsTask());

    [Fact]
    public async Task Port_page_rows_stay_within_the_range_its_lookahead_found()
    {
        var customer = Ids.NewCustomer();
        var orders = await InsertAsync(customer, 5, i => PagingEpoch.AddSeconds(i));

        // Decided first, read later: a newer order inserted in between is not on this page, and an order that
        // left the status filter in between is simply missing from it; Next stays what the lookahead said.
        using var call = new CancellationTokenSource();
        var page = await Port.ListByCustomerAsync(new CustomerOrdersQuery(customer, OrderStatus.Created, 2), call.Token);
        await call.CancelAsync(); // the rows must not depend on the call's token
        var newest = Transitions.Create(Guid.CreateVersion7(), customer, [new OrderLine("SKU-N", 1, 1m)], PagingEpoch.AddMinutes(10));
        (await Port.CreateAsync(new NewOrder(newest, null, Hash("newest")), Ct)).Outcome.ShouldBe(CreateOutcome.Created);
        await Port.TransitionAsync(new TransitionCommand(orders[4].Id, OrderAction.Pay, null, PagingEpoch.AddHours(1), new()), Ct);

        (await page.Orders.Select(o => o.Id).ToListAsync(Ct)).ShouldBe([orders[3].Id]);
        page.Next.ShouldBe(new OrderPosition(orders[3].CreatedAt, orders[3].Id));

        var rest = await Port.ListByCustomerAsync(new CustomerOrdersQuery(customer, OrderStatus.Created, 2, page.Next), Ct);
        (await rest.Orders.Select(o => o.Id).ToListAsync(Ct)).ShouldBe([orders[2].Id, orders[1].Id]);
        var last = await Port.ListByCustomerAsync(new CustomerOrdersQuery(customer, OrderStatus.Created, 2, rest.Next), Ct);
        (await last.Orders.Select(o => o.Id).ToListAsync(Ct)).ShouldBe([orders[0].Id]);
        last.Next.ShouldBeNull();

        var none = await Port.ListByCustomerAsync(new CustomerOrdersQuery(Ids.NewCustomer(), null, 10), Ct);
        none.Next.ShouldBeNull();
        (await none.Orders.ToListAsync(Ct)).ShouldBeEmpty();
    }

    /// <summary>Inserts through the port, eight at a time (fast on every store), oldest first by index.</summary>
    private async Task<IReadOnlyList<Order>> InsertAsync(string customer, int count, Func<int, DateTimeOffset> createdAt)
    {
        var orders = Enumerable.Range(0, count)
            .Select(i => Transitions.Create(Guid.CreateVersion7(), customer, [new OrderLine("SKU-P", 1, 1.5m)], Timestamps.Truncate(createdAt(i))))
            .ToArray();
        await Parallel.ForEachAsync(orders, new ParallelOptions { MaxDegreeOfParallelism = 8, CancellationToken = Ct }, async (order, token) =>
            (await Port.CreateAsync(new NewOrder(order, null, "h"), token)).Outcome.ShouldBe(CreateOutcome.Created));
        return orders;
    }
}
