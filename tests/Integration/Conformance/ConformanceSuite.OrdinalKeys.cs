using System.Net;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Conformance;

// Customer ids and idempotency keys compare as ordinal text on every store: 'Alice' and 'alice' are two
// customers and two keys, as on PostgreSQL and SQLite. SQL Server's and Babelfish's default collations are
// case-insensitive, so their store declares these columns with a binary collation (issue 13).
public abstract partial class ConformanceSuite<TStore>
{
    [Fact]
    public async Task Customer_ids_that_differ_only_in_case_are_two_customers()
    {
        var upper = "CASE-" + Ids.NewCustomer();
        var lower = upper.ToLowerInvariant();
        var first = await Api.CreateOrderAsync(upper);
        var second = await Api.CreateOrderAsync(lower);

        (await Api.ListAsync(upper)).Select(o => o.Id).ShouldBe([first.Id]);
        (await Api.ListAsync(lower)).Select(o => o.Id).ShouldBe([second.Id]);
        (await Api.GetOrderAsync(first.Id)).CustomerId.ShouldBe(upper);
    }

    [Fact]
    public async Task Idempotency_keys_that_differ_only_in_case_are_two_keys()
    {
        var upper = "KEY-" + Ids.NewKey();
        var lower = upper.ToLowerInvariant();

        using var first = await Api.CreateAsync(Ids.NewCustomer(), idempotencyKey: upper);
        using var second = await Api.CreateAsync(Ids.NewCustomer(), idempotencyKey: lower); // another body: with one key this would be 422

        var a = await OrderApi.ReadOrderAsync(first, HttpStatusCode.Created);
        var b = await OrderApi.ReadOrderAsync(second, HttpStatusCode.Created);
        b.Id.ShouldNotBe(a.Id);
    }
}
