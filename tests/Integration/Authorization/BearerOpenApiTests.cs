using System.Net.Http.Json;
using System.Text.Json.Nodes;
using OrderService.Integration.Tests.Api;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Authorization;

/// <summary>The OpenAPI document declares the bearer scheme, and what each operation needs, only when authorization is on.</summary>
public sealed class BearerOpenApiTests(AuthorizedSqlite service, ApiHost host) : IClassFixture<AuthorizedSqlite>, IClassFixture<ApiHost>
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task On_the_document_declares_the_bearer_scheme_and_every_order_operation_requires_it()
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, "/openapi/v1.json");
        request.Headers.Authorization = new("Bearer", TestTokens.Operator());
        using var response = await service.Client.SendAsync(request, Ct);
        var document = (await response.EnsureSuccessStatusCode().Content.ReadFromJsonAsync<JsonNode>(Ct))!;

        var scheme = document["components"]!["securitySchemes"]!["Bearer"]!;
        (scheme["type"]!.GetValue<string>(), scheme["scheme"]!.GetValue<string>(), scheme["bearerFormat"]!.GetValue<string>()).ShouldBe(("http", "bearer", "JWT"));
        foreach (var (path, method, scope) in Operations(document).Where(o => !o.Path.StartsWith("/health", StringComparison.Ordinal)))
        {
            var operation = document["paths"]![path]![method]!;
            operation["security"]!.AsArray().ShouldHaveSingleItem()!.AsObject().Select(r => r.Key).ShouldBe(["Bearer"], $"{method} {path}");
            operation["description"]!.GetValue<string>().ShouldContain(scope, customMessage: $"{method} {path}");
            foreach (var status in new[] { "401", "403" })
            {
                operation["responses"]![status]!["content"]!["application/problem+json"].ShouldNotBeNull($"{status} of {method} {path}");
            }
        }

        document["paths"]!["/health/ready"]!["get"]!["security"]!.AsArray().ShouldBeEmpty("the probes are anonymous");
    }

    [Fact]
    public async Task Off_the_document_has_no_security_and_no_401()
    {
        var document = (await host.Client.GetFromJsonAsync<JsonNode>("/openapi/v1.json", Ct))!;

        document["components"]!["securitySchemes"].ShouldBeNull();
        foreach (var (path, method, _) in Operations(document))
        {
            var operation = document["paths"]![path]![method]!;
            operation["security"].ShouldBeNull($"{method} {path}");
            operation["responses"]!["401"].ShouldBeNull($"{method} {path}");
        }
    }

    /// <summary>Each operation, with the scope the matrix of docs/authorization.md gives it.</summary>
    private static IEnumerable<(string Path, string Method, string Scope)> Operations(JsonNode document)
    {
        var scopes = AuthorizationCases.Cells().DistinctBy(c => c.Route).ToDictionary(c => c.Route, c => c.Scope);
        return document["paths"]!.AsObject().SelectMany(path => path.Value!.AsObject().Select(method =>
            (path.Key, method.Key, scopes.GetValueOrDefault($"{method.Key.ToUpperInvariant()} {path.Key}", "none"))));
    }
}
