using Microsoft.AspNetCore.Http.HttpResults;
using OrderService.Authorization;
using OrderService.Data;
using OrderService.Validation;

namespace OrderService.Apis;

/// <summary>/customers/{customerId}/orders: a customer's orders, newest first, streamed.</summary>
public static class CustomersApi
{
    public static RouteGroupBuilder MapCustomersApi(this IEndpointRouteBuilder app)
    {
        var customers = app.MapGroup("/customers")
            .RequireOrderAccess()
            .WithTags("Customers")
            .ProducesValidationProblem()
            .ProducesProblem(StatusCodes.Status503ServiceUnavailable);

        customers.MapGet("/{customerId}/orders", ListOrdersAsync)
            .WithName("ListCustomerOrders")
            .WithSummary("A customer's orders, newest first: status filters, limit is 1–1,000 (default 100).");
        return customers;
    }

    internal static async Task<Results<OrderStream, ValidationProblem>> ListOrdersAsync(
        string customerId,
        string? status,
        int? limit,
        IOrderStore store,
        CancellationToken cancellationToken)
    {
        var errors = default(ValidationErrors);
        OrderRequestRules.CustomerId(customerId, "customerId", ref errors);
        var statusFilter = OrderRequestRules.StatusFilter(status, ref errors);
        var take = OrderRequestRules.Limit(limit, ref errors);
        if (errors.Any)
        {
            return errors.ToProblem();
        }

        return await OrderStream.OpenAsync(store.ListByCustomerAsync(customerId, statusFilter, take, cancellationToken), cancellationToken).ConfigureAwait(false);
    }
}
