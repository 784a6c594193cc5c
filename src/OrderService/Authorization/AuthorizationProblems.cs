using Microsoft.AspNetCore.Authentication;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Authorization.Policy;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;
using OrderService.Problems;

namespace OrderService.Authorization;

/// <summary>401 and 403 as problems that say which scope the call needs; type and title are the framework's.</summary>
public static class AuthorizationProblems
{
    public static ProblemDetails Unauthorized(string? scope) => new()
    {
        Status = StatusCodes.Status401Unauthorized,
        Detail = $"This call needs a valid bearer token{(scope is null ? "" : $" with scope {scope}")} " +
            $"(Authorization: Bearer <token>); when one was sent, WWW-Authenticate says why it was refused.",
    };

    public static ProblemDetails Forbidden(string detail) =>
        new() { Status = StatusCodes.Status403Forbidden, Detail = detail };

    public static ProblemDetails MissingScope(string scope) => Forbidden($"The token does not grant scope {scope}.");

    public static ProblemDetails NoCustomer() => Forbidden("The token names no customer " +
        $"({OrderScopes.CustomerClaim} claim) and lacks scope {OrderScopes.Admin}, which reaches every customer.");

    public static ProblemHttpResult OtherCustomer() => TypedResults.Problem(
        Forbidden($"The token's {OrderScopes.CustomerClaim} claim allows only that customer's orders."));

    public static ProblemHttpResult AmbiguousCustomer() => TypedResults.Problem(Forbidden(
        $"The token carries more than one {OrderScopes.CustomerClaim} claim; it must name one customer."));
}

/// <summary>Challenges and forbids as the default handler does, then writes a problem naming the scope.</summary>
internal sealed class ProblemAuthorizationResultHandler : IAuthorizationMiddlewareResultHandler
{
    public async Task HandleAsync(RequestDelegate next, HttpContext context, AuthorizationPolicy policy,
        PolicyAuthorizationResult authorizeResult)
    {
        if (authorizeResult.Succeeded)
        {
            await next(context);
            return;
        }

        var scope = policy.Requirements.OfType<ScopeRequirement>().FirstOrDefault()?.Scope;
        if (authorizeResult.Challenged)
        {
            await context.ChallengeAsync();
            await ProblemSetup.WriteAsync(context, AuthorizationProblems.Unauthorized(scope));
            return;
        }

        await context.ForbidAsync();
        var failed = authorizeResult.AuthorizationFailure?.FailedRequirements ?? [];
        var onlyCustomer = failed.Contains(OrderScopes.CustomerRequirement) && !failed.OfType<ScopeRequirement>().Any();
        await ProblemSetup.WriteAsync(context,
            onlyCustomer ? AuthorizationProblems.NoCustomer() : AuthorizationProblems.MissingScope(scope ?? "(none)"));
    }
}
