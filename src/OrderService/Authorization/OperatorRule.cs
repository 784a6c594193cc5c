using System.Net;
using Microsoft.AspNetCore.Mvc;
using OrderService.Problems;

namespace OrderService.Authorization;

/// <summary>With authorization on, a token with scope orders:admin; with it off, a call from loopback.</summary>
public sealed class OperatorRule(BearerAuthorizationSwitch authorization) : IOperatorAccess
{
    public bool IsOperator(HttpContext context) => authorization.IsOn
        ? OrderScopes.Has(context.User, OrderScopes.Admin)
        : context.Connection.RemoteIpAddress is { } address
            && IPAddress.IsLoopback(address.IsIPv4MappedToIPv6 ? address.MapToIPv4() : address);

    public static ProblemDetails Refused() => AuthorizationProblems.Forbidden("Only an operator reads this: a " +
        $"token with scope {OrderScopes.Admin} when authorization is on, a call from loopback when it is off.");
}
