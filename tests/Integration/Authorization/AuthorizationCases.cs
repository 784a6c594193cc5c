using System.Net;
using System.Net.Http.Json;
using Xunit;

namespace OrderService.Integration.Tests.Authorization;

/// <summary>An order the test prepared, in the status the endpoint needs, and its owner.</summary>
public sealed record Target(Guid OrderId, string Owner);

/// <summary>One endpoint of the matrix: the request it sends, the scope it needs, and what the owner and a stranger get.</summary>
public sealed record EndpointCase(
    string Scope,
    string[] StepsBefore,
    Func<Target, HttpRequestMessage> Request,
    HttpStatusCode Owner,
    HttpStatusCode Stranger);

/// <summary>Every endpoint x every kind of credential (API.md, authorization).</summary>
public static class AuthorizationCases
{
    public const string OtherCustomer = "someone-else";

    public static readonly IReadOnlyDictionary<string, EndpointCase> Endpoints = new Dictionary<string, EndpointCase>
    {
        ["create"] = new("orders:write", [], t => Post("/orders", new { customerId = t.Owner, lines = new[] { new { sku = "SKU-1", quantity = 1, unitPrice = 2.50m } } }), HttpStatusCode.Created, HttpStatusCode.Forbidden),
        ["get"] = new("orders:read", [], t => new HttpRequestMessage(HttpMethod.Get, $"/orders/{t.OrderId}"), HttpStatusCode.OK, HttpStatusCode.NotFound),
        ["pay"] = new("orders:write", [], t => Post($"/orders/{t.OrderId}/pay", new { paymentReference = "p-1" }), HttpStatusCode.OK, HttpStatusCode.NotFound),
        ["ship"] = new("orders:write", ["pay"], t => Post($"/orders/{t.OrderId}/ship", new { carrier = "DHL", trackingNumber = "T-1" }), HttpStatusCode.OK, HttpStatusCode.NotFound),
        ["complete"] = new("orders:write", ["pay", "ship"], t => new HttpRequestMessage(HttpMethod.Post, $"/orders/{t.OrderId}/complete"), HttpStatusCode.OK, HttpStatusCode.NotFound),
        ["cancel"] = new("orders:write", [], t => Post($"/orders/{t.OrderId}/cancel", new { reason = "changed my mind" }), HttpStatusCode.OK, HttpStatusCode.NotFound),

        // A stranger's batch is 200 too: it just leaves out the orders that are not theirs.
        ["batch"] = new("orders:read", [], t => Post("/orders/batch", new { ids = new[] { t.OrderId } }), HttpStatusCode.OK, HttpStatusCode.OK),
        ["listing"] = new("orders:read", [], t => new HttpRequestMessage(HttpMethod.Get, $"/customers/{t.Owner}/orders"), HttpStatusCode.OK, HttpStatusCode.Forbidden),
    };

    public static readonly string[] Credentials = ["none", "wrong-audience", "expired", "wrong-scope", "other-customer", "right"];

    public static TheoryData<string, string> Matrix
    {
        get
        {
            var data = new TheoryData<string, string>();
            foreach (var endpoint in Endpoints.Keys)
            {
                foreach (var credential in Credentials)
                {
                    data.Add(endpoint, credential);
                }
            }

            return data;
        }
    }

    /// <summary>The bearer token for <paramref name="credential"/> against an endpoint needing <paramref name="scope"/>, or null for none.</summary>
    public static string? TokenFor(string credential, string scope, string owner) => credential switch
    {
        "none" => null,
        "wrong-audience" => TestTokens.Create(scope, owner, audience: "another-service"),
        "expired" => TestTokens.Create(scope, owner, expiresIn: TimeSpan.FromHours(-1)),
        "wrong-scope" => TestTokens.Create(scope == "orders:read" ? "orders:write" : "orders:read", owner),
        "other-customer" => TestTokens.Create(scope, OtherCustomer),
        "right" => TestTokens.Create(scope, owner),
        _ => throw new ArgumentOutOfRangeException(nameof(credential), credential, null),
    };

    private static HttpRequestMessage Post(string path, object body) => new(HttpMethod.Post, path) { Content = JsonContent.Create(body) };
}
