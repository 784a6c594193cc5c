using System.Globalization;
using System.Net.Http.Json;
using Xunit;

namespace OrderService.Integration.Tests.Authorization;

/// <summary>An order the test prepared, in the status the endpoint needs, and its owner.</summary>
public sealed record Target(Guid OrderId, string Owner);

/// <summary>One route of the matrix: the order status it needs first and the request it sends.</summary>
public sealed record EndpointCase(string[] StepsBefore, Func<Target, HttpRequestMessage> Request);

/// <summary>
/// The matrix of docs/authorization.md, read from the page: each route's scope and, per kind of token, the status it
/// answers. What the page cannot say (how to send each route's request) is here, by the route the page names.
/// </summary>
public static class AuthorizationCases
{
    public const string PagePath = "docs/authorization.md";
    public const string OtherCustomer = "someone-else";

    private static readonly string[] AllScopes = ["orders:read", "orders:write", "orders:fulfil"];

    public static readonly IReadOnlyDictionary<string, EndpointCase> Endpoints = new Dictionary<string, EndpointCase>
    {
        ["POST /orders"] = new([], t => Post("/orders",
            new { customerId = t.Owner, lines = new[] { new { sku = "SKU-1", quantity = 1, unitPrice = 2.50m } } })),
        ["GET /orders/{id}"] = new([], t => new(HttpMethod.Get, $"/orders/{t.OrderId}")),
        ["POST /orders/{id}/pay"] = new([], t => Post($"/orders/{t.OrderId}/pay", new { paymentReference = "p-1" })),
        ["POST /orders/{id}/cancel"] = new([], t => Post($"/orders/{t.OrderId}/cancel", new { reason = "changed" })),
        ["POST /orders/{id}/ship"] = new(["pay"],
            t => Post($"/orders/{t.OrderId}/ship", new { carrier = "DHL", trackingNumber = "T-1" })),
        ["POST /orders/{id}/complete"] = new(["pay", "ship"],
            t => new(HttpMethod.Post, $"/orders/{t.OrderId}/complete")),
        ["POST /orders/batch"] = new([], t => Post("/orders/batch", new { ids = new[] { t.OrderId } })),
        ["GET /customers/{customerId}/orders"] = new([], t => new(HttpMethod.Get, $"/customers/{t.Owner}/orders")),
    };

    /// <summary>The page's column headers and the tokens each stands for.</summary>
    public static readonly IReadOnlyDictionary<string, string[]> Columns = new Dictionary<string, string[]>
    {
        ["No or invalid token"] = ["none", "wrong-audience", "expired"],
        ["Without the scope"] = ["wrong-scope"],
        ["No customer_id, no orders:admin"] = ["no-customer"],
        ["Another customer"] = ["other-customer"],
        ["Own customer"] = ["right"],
        ["orders:admin"] = ["admin"],
    };

    /// <summary>Route, scope, token and the status the page gives: one case per cell and token.</summary>
    public static TheoryData<string, string, string, int> Matrix
    {
        get
        {
            var data = new TheoryData<string, string, string, int>();
            foreach (var (route, scope, credential, status) in Cells())
            {
                data.Add(route, scope, credential, status);
            }

            return data;
        }
    }

    /// <summary>Every cell of the page's table; fails on a route or column the test does not know.</summary>
    public static IEnumerable<(string Route, string Scope, string Credential, int Status)> Cells()
    {
        var lines = File.ReadAllLines(Path.Combine(Repository.Root, PagePath))
            .SkipWhile(l => !l.StartsWith("| Route |", StringComparison.Ordinal))
            .TakeWhile(l => l.StartsWith('|')).Select(Split).ToList();
        if (lines.Count < 3)
        {
            throw new InvalidOperationException($"{PagePath} has no table that starts with '| Route |'.");
        }

        var header = lines[0];
        foreach (var row in lines.Skip(2))
        {
            if (!Endpoints.ContainsKey(row[0]))
            {
                throw new InvalidOperationException($"{PagePath} names a route the test cannot send: {row[0]}");
            }

            for (var column = 2; column < header.Length; column++)
            {
                var credentials = Columns.TryGetValue(header[column], out var known) ? known
                    : throw new InvalidOperationException($"{PagePath} has an unknown column: {header[column]}");
                var status = int.Parse(row[column].AsSpan(0, 3), CultureInfo.InvariantCulture);
                foreach (var credential in credentials)
                {
                    yield return (row[0], row[1], credential, status);
                }
            }
        }
    }

    /// <summary>The bearer token for <paramref name="credential"/> against an endpoint needing <paramref name="scope"/>, or null for none.</summary>
    public static string? TokenFor(string credential, string scope, string owner) => credential switch
    {
        "none" => null,
        "wrong-audience" => TestTokens.Create(scope, owner, audience: "another-service"),
        "expired" => TestTokens.Create(scope, owner, expiresIn: TimeSpan.FromHours(-1)),
        "wrong-scope" => TestTokens.Create(string.Join(' ', AllScopes.Where(s => s != scope)), owner),
        "no-customer" => TestTokens.Create(scope),
        "other-customer" => TestTokens.Create(scope, OtherCustomer),
        "right" => TestTokens.Create(scope, owner),
        "admin" => TestTokens.Create($"{scope} orders:admin"),
        _ => throw new ArgumentOutOfRangeException(nameof(credential), credential, null),
    };

    private static string[] Split(string line) =>
        [.. line.Trim().Trim('|').Split('|').Select(cell => cell.Trim().Replace("`", "", StringComparison.Ordinal))];

    private static HttpRequestMessage Post(string path, object body) => new(HttpMethod.Post, path) { Content = JsonContent.Create(body) };
}

/// <summary>The repository this test runs from (the folder that holds OrderService.sln).</summary>
public static class Repository
{
    public static string Root { get; } = Find();

    private static string Find()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null;
             directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "OrderService.sln")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException($"No OrderService.sln above {AppContext.BaseDirectory}.");
    }
}
