using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Shouldly;

namespace OrderService.Deployment.Tests;

/// <summary>The order workflow over HTTP as a client runs it, for the tests that start a built service of their own.</summary>
internal static class HttpWorkflow
{
    /// <summary>
    /// create -> pay -> ship -> complete, each step after create with If-Match; every answer must be the expected one.
    /// Returns the create's Location and the order as the complete step answered it.
    /// </summary>
    public static async Task<(string Location, JsonObject Completed)> RunAsync(HttpClient http, string customerId, CancellationToken cancellationToken)
    {
        var created = await http.PostAsJsonAsync("/orders", new { customerId, lines = new[] { new { sku = "SKU-1", quantity = 2, unitPrice = 12.50m } } }, cancellationToken);
        created.StatusCode.ShouldBe(HttpStatusCode.Created, await created.Content.ReadAsStringAsync(cancellationToken));
        var order = created.Headers.Location!.ToString();
        JsonObject? last = null;
        foreach (var (step, version, body) in new (string, int, object?)[]
        {
            ("pay", 1, new { paymentReference = $"p-{customerId}" }),
            ("ship", 2, new { carrier = "DHL", trackingNumber = $"TRK-{customerId}" }),
            ("complete", 3, null),
        })
        {
            using var request = new HttpRequestMessage(HttpMethod.Post, $"{order}/{step}") { Content = body is null ? null : JsonContent.Create(body) };
            request.Headers.IfMatch.Add(new EntityTagHeaderValue($"\"{version}\""));
            using var response = await http.SendAsync(request, cancellationToken);
            response.StatusCode.ShouldBe(HttpStatusCode.OK, $"{step}: {await response.Content.ReadAsStringAsync(cancellationToken)}");
            last = (await response.Content.ReadFromJsonAsync<JsonObject>(cancellationToken))!;
        }

        return (order, last!);
    }
}
