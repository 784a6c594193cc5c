using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using System.Globalization;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;
using OrderService.Authorization;
using OrderService.Contracts;
using OrderService.Data;
using OrderService.Validation;

namespace OrderService.Apis;

/// <summary>/customers/{customerId}/orders: a customer's orders, newest first, one keyset page at a time,
/// streamed.</summary>
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
            .WithSummary("A customer's orders, newest first: status filters, limit is 1–1,000 (default 100); Link " +
                "rel=\"next\" leads to the next page.")
            .WithDescription("A customer's orders, newest first, as a JSON array streamed while the store returns " +
                "rows; an unknown customer has none.");
        return customers;
    }

    // limit is bound as text and parsed by our rules, so a bad value is named with the other bad fields while the
    // endpoint keeps its generated binding.
    internal static async Task<Results<OrderStream, ValidationProblem>> ListOrdersAsync(
        [Description("1–64 characters of [A-Za-z0-9_-]."), Length(1, 64), CustomerId] string customerId,
        string? status,
        string? limit,
        string? cursor,
        [FromServices] IOrderStore store,
        HttpResponse response,
        CancellationToken cancellationToken)
    {
        var errors = default(ValidationErrors);
        var statusFilter = OrderRequestRules.StatusFilter(status, ref errors);
        var take = OrderRequestRules.Limit(limit, ref errors);
        var after = Cursor(cursor, ref errors);
        if (errors.Any)
        {
            return errors.ToProblem();
        }

        var query = new CustomerOrdersQuery(customerId, statusFilter, take, after);
        var page = await store.ListByCustomerAsync(query, cancellationToken);
        var stream = await OrderStream.OpenAsync(page.Orders, cancellationToken);
        if (page.Next is { } next)
        {
            response.Headers.Link = NextLink(response.HttpContext.Request, take, statusFilter, next);
        }

        return stream;
    }

    private static OrderPosition? Cursor(string? value, ref ValidationErrors errors)
    {
        if (string.IsNullOrEmpty(value))
        {
            return null;
        }

        if (PageCursor.TryDecode(value, out var position))
        {
            return position;
        }

        errors.Add("cursor", "Must be a cursor from the Link header (rel=\"next\") of this listing, unchanged.");
        return null;
    }

    // The customer id is [A-Za-z0-9_-] and the cursor base64url, so nothing needs escaping.
    private static string NextLink(HttpRequest request, int limit, Data.Orders.OrderStatus? status,
        OrderPosition next) =>
        string.Create(CultureInfo.InvariantCulture,
            $"<{request.PathBase}{request.Path}?limit={limit}{(status is { } s ? "&status=" + s : "")}&cursor={
                PageCursor.Encode(next)}>; rel=\"next\"");
}
