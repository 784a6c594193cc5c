using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Nodes;
using OrderService.Deployment.Tests.Docs;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests;

/// <summary>
/// docs/openapi.json is the contract as a file, for client generators that cannot run the service: it must equal the
/// document the running service publishes. With ORDERS_WRITE_OPENAPI=1 the test writes the service's document there
/// instead (the one command that regenerates it, printed when they differ).
/// </summary>
public sealed class OpenApiFileTests
{
    private const string File = "docs/openapi.json";

    private const string Regenerate = "ORDERS_WRITE_OPENAPI=1 dotnet "
        + "artifacts/bin/Deployment/release/OrderService.Deployment.Tests.dll -noLogo -class \"*OpenApiFileTests\"";

    // Indented and unescaped, so that a change to the contract reads as a plain diff.
    private static readonly JsonSerializerOptions Indented =
        new() { WriteIndented = true, Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task The_checked_in_document_is_the_one_the_service_publishes()
    {
        var published = await PublishedOpenApi.ReadAsync(Ct);
        var path = Repository.PathOf(File.Split('/'));
        if (Environment.GetEnvironmentVariable("ORDERS_WRITE_OPENAPI") == "1")
        {
            await System.IO.File.WriteAllTextAsync(path, published.ToJsonString(Indented) + "\n", Ct);
        }

        System.IO.File.Exists(path).ShouldBeTrue($"{File} is missing; write it with:\n{Regenerate}");
        var checkedIn = JsonNode.Parse(await System.IO.File.ReadAllTextAsync(path, Ct));

        JsonNode.DeepEquals(checkedIn, published).ShouldBeTrue($"{File} differs from the service's "
            + $"{PublishedOpenApi.Route}; after a change to the contract regenerate it with:\n{Regenerate}");
    }
}
