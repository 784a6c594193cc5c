using System.Net;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json.Nodes;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Api;

/// <summary>
/// The 1 MiB body cap is Kestrel's MaxRequestBodySize, so it is tested on Kestrel (TestServer does not enforce it):
/// with and without Content-Length, a 413 problem, and nothing written. The rejection comes before any handler, so
/// one store stands for all.
/// </summary>
public sealed class RequestBodyLimitTests(ApiHost host) : IClassFixture<ApiHost>
{
    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public async Task A_body_over_1_MiB_is_a_413_problem_and_writes_nothing(bool withContentLength)
    {
        var port = FreePort.Loopback();
        await using var service = host.Create();
        service.UseKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, port));
        service.StartServer();
        using var client = new HttpClient { BaseAddress = new Uri($"http://127.0.0.1:{port}/") };
        var customer = ApiHost.NewCustomer();
        var body = ApiHost.ValidOrder(customer).ToJsonString();
        var padding = new string(' ', RequestLimits.MaxBodyBytes + 1 - body.Length);
        var bytes = Encoding.UTF8.GetBytes(body[..^1] + padding + "}"); // valid JSON, one byte over the cap
        using HttpContent content = withContentLength
            ? new ByteArrayContent(bytes)
            : new StreamContent(new UnknownLength(bytes));
        content.Headers.ContentType = new("application/json");

        using var response = await client.PostAsync("/orders", content, ApiHost.Ct);

        var problem = await OrderApi.ReadProblemAsync(response, HttpStatusCode.RequestEntityTooLarge);
        problem["type"]!.GetValue<string>().ShouldBe("https://tools.ietf.org/html/rfc9110#section-15.5.14");
        problem["detail"]!.GetValue<string>().ShouldBe("Request bodies are capped at 1 MiB.");
        (await client.GetFromJsonAsync<JsonArray>($"/customers/{customer}/orders", ApiHost.Ct))!.ShouldBeEmpty();
    }

    /// <summary>A body whose length the client does not announce (chunked): only the server's count caps it.</summary>
    private sealed class UnknownLength(byte[] bytes) : MemoryStream(bytes)
    {
        public override bool CanSeek => false;
    }
}
