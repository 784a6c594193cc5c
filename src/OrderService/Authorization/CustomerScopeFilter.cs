using OrderService.Contracts;
using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Problems;

namespace OrderService.Authorization;

/// <summary>A result that can narrow itself to one customer's orders (a streamed list).</summary>
public interface ICustomerScopedResult
{
    IResult OnlyOf(string customerId);
}

/// <summary>A customer_id claim reaches only that customer's orders; another's order is a 404, so none leaks.</summary>
internal sealed class CustomerScopeFilter : IEndpointFilter
{
    public async ValueTask<object?> InvokeAsync(EndpointFilterInvocationContext context, EndpointFilterDelegate next)
    {
        var http = context.HttpContext;
        var claims = http.User.FindAll(OrderScopes.CustomerClaim).Take(2).ToList();
        if (claims.Count == 0)
        {
            // The policy let it in, so it holds orders:admin: every customer.
            return await next(context);
        }

        // Several customer_id claims would make "that customer" ambiguous: refuse rather than pick one.
        if (claims.Count > 1)
        {
            return AuthorizationProblems.AmbiguousCustomer();
        }

        var customer = claims[0].Value;
        var refusal = await RefuseBeforeAsync(context, customer);
        if (refusal is not null)
        {
            return refusal;
        }

        return Screen(await next(context), customer, http.Response);
    }

    private static async ValueTask<object?> RefuseBeforeAsync(EndpointFilterInvocationContext context, string customer)
    {
        var http = context.HttpContext;
        var route = http.Request.RouteValues;
        if (route.TryGetValue("customerId", out var listed)
            && !string.Equals(listed as string, customer, StringComparison.Ordinal))
        {
            return AuthorizationProblems.OtherCustomer();
        }

        foreach (var argument in context.Arguments)
        {
            // A create names its customer in the body; a missing or malformed one is left to validation (400).
            if (argument is CreateOrderRequest { CustomerId: { Length: > 0 } named }
                && !string.Equals(named, customer, StringComparison.Ordinal))
            {
                return AuthorizationProblems.OtherCustomer();
            }
        }

        // The binder has already turned {id} into a Guid or answered 400, so a parse failure cannot happen here.
        if (!HttpMethods.IsGet(http.Request.Method) && route.TryGetValue("id", out var raw)
            && Guid.TryParse(raw as string, out var id))
        {
            var store = http.RequestServices.GetRequiredService<IOrderStore>();
            var order = await store.GetAsync(id, http.RequestAborted);
            if (order is not null && !string.Equals(order.CustomerId, customer, StringComparison.Ordinal))
            {
                return ApiProblems.OrderNotFound(id);
            }
        }

        return null;
    }

    private static object? Screen(object? result, string customer, HttpResponse response)
    {
        var answer = result is INestedHttpResult nested ? nested.Result : result;
        switch (answer)
        {
            case IValueHttpResult<Order> { Value: { } order } when !string.Equals(order.CustomerId, customer,
                StringComparison.Ordinal):
                response.Headers.ETag = default;
                return ApiProblems.OrderNotFound(order.Id);
            case ICustomerScopedResult scoped:
                return scoped.OnlyOf(customer);
            default:
                return result;
        }
    }
}
