using System.Runtime.CompilerServices;
using OrderService.Data;
using OrderService.Data.Orders;

namespace OrderService.Testing;

/// <summary>Conveniences over <see cref="IOrderStore.ListByCustomerAsync"/> for tests and the load audit.</summary>
public static class OrderStoreListing
{
    /// <summary>The first page of a customer's orders, newest first.</summary>
    public static async IAsyncEnumerable<Order> ListByCustomerAsync(
        this IOrderStore store, string customerId, OrderStatus? status, int limit,
            [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(store);
        var page = await store.ListByCustomerAsync(new CustomerOrdersQuery(customerId, status, limit),
            cancellationToken);
        await foreach (var order in page.Orders.WithCancellation(cancellationToken))
        {
            yield return order;
        }
    }

    /// <summary>Every order of a customer, newest first, walked page by page.</summary>
    public static async IAsyncEnumerable<Order> ListAllByCustomerAsync(
        this IOrderStore store, string customerId, OrderStatus? status, int pageSize,
            [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(store);
        OrderPosition? after = null;
        do
        {
            var page = await store.ListByCustomerAsync(new CustomerOrdersQuery(customerId, status, pageSize, after),
                cancellationToken);
            await foreach (var order in page.Orders.WithCancellation(cancellationToken))
            {
                yield return order;
            }

            after = page.Next;
        }
        while (after is not null);
    }
}
