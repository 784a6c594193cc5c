using System.Net;
using CliWrap;
using CliWrap.Buffered;
using OrderService.Authorization;
using OrderService.Integration.Tests.Api;
using OrderService.ServiceDefaults;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Authorization;

/// <summary>
/// Fails closed: each environment with and without <c>Authorization:Mode</c>, in process (what is served) and as the
/// real process (the one line it prints when it refuses). A null setting removes the harness's default.
/// </summary>
public sealed class AuthorizationModeTests(ApiHost host) : IClassFixture<ApiHost>
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    private static readonly (string, string?)[] NothingSet = [("Authorization:Mode", null), ("OpenApi:Enabled", null)];

    [Theory]
    [InlineData("Production")]
    [InlineData("Staging")]
    [InlineData("Testing")]
    public async Task Outside_Development_without_settings_the_process_refuses_with_one_line_naming_both_ways_out(
        string environment)
    {
        var run = await CheckConfigAsync(new() { ["ASPNETCORE_ENVIRONMENT"] = environment });

        run.ExitCode.ShouldBe(1, run.StandardOutput + run.StandardError);
        run.StandardError.Trim().ShouldBe(AuthorizationSettingsValidator.NotConfigured);
        run.StandardError.ShouldContain("Authorization:Mode=None");
        run.StandardError.ShouldContain("Authorization:Authority");
    }

    [Fact]
    public async Task The_published_service_with_no_environment_refuses()
    {
        var run = await CheckConfigAsync([]);

        (run.ExitCode, run.StandardError.Trim()).ShouldBe((1, AuthorizationSettingsValidator.NotConfigured));
    }

    [Theory]
    [InlineData("ASPNETCORE_ENVIRONMENT", "Development")]
    [InlineData("Authorization__Mode", "None")]
    [InlineData("Authorization__Mode", "none")]
    public async Task Development_or_an_explicit_None_passes_the_check(string name, string value)
    {
        var run = await CheckConfigAsync(new() { [name] = value });

        (run.ExitCode, run.StandardOutput.Trim()).ShouldBe((0, ConfigurationCheck.Valid), run.StandardError);
    }

    [Fact]
    public async Task Development_without_settings_serves_every_call_the_document_and_Swagger_UI_tokenless()
    {
        await using var service = host.Create([.. NothingSet, ("environment", "Development")]);
        using var client = service.CreateClient();

        var order = await ApiHost.CreateOrderAsync(client, ApiHost.NewCustomer());
        using var read = await client.GetAsync($"/orders/{order["id"]}", Ct);
        using var document = await client.GetAsync("/openapi/v1.json", Ct);
        using var ui = await client.GetAsync("/swagger/index.html", Ct);

        (read.StatusCode, document.StatusCode, ui.StatusCode)
            .ShouldBe((HttpStatusCode.OK, HttpStatusCode.OK, HttpStatusCode.OK));
    }

    [Theory]
    [InlineData(null, HttpStatusCode.NotFound)]
    [InlineData("false", HttpStatusCode.NotFound)]
    [InlineData("true", HttpStatusCode.OK)]
    public async Task Production_with_Mode_None_serves_without_a_token_and_the_document_only_when_enabled(
        string? enabled, HttpStatusCode document)
    {
        await using var service = host.Create(
            ("environment", "Production"), ("Authorization:Mode", "None"), ("OpenApi:Enabled", enabled));
        using var client = service.CreateClient();

        var order = await ApiHost.CreateOrderAsync(client, ApiHost.NewCustomer());
        using var read = await client.GetAsync($"/orders/{order["id"]}", Ct);
        using var openApi = await client.GetAsync("/openapi/v1.json", Ct);
        using var ui = await client.GetAsync("/swagger/index.html", Ct);

        (read.StatusCode, openApi.StatusCode, ui.StatusCode).ShouldBe((HttpStatusCode.OK, document, document));
    }

    public static TheoryData<string, string?, string, string> Refused => new()
    {
        { "Production", null, "Authorisation:Mode", AuthorizationSettingsValidator.NotConfigured },
        { "Production", "None", "Authorization:Mod", "Authorization:Mod is not a setting" },
        { "Development", null, "Authentication:Schemes:Berer:ValidIssuer", "Authentication:Schemes:Berer is not" },
        { "Production", "None", "Authentication:Schemes:Bearer:ValidIssuer", "Mode is None, yet Authentication:" },
        { "Production", "Bearer", "Authorization:Audience", "Mode is Bearer, but no token would be accepted" },
        { "Production", null, "Authorization:Authority", "Audience is required with Authorization:Authority" },
    };

    /// <summary>A misspelt or contradictory setting never leaves authorization off silently.</summary>
    [Theory]
    [MemberData(nameof(Refused))]
    public async Task A_misspelt_or_contradictory_setting_stops_start_up_naming_it(
        string environment, string? mode, string key, string named)
    {
        await using var service = host.Create(
            [.. NothingSet, ("environment", environment), ("Authorization:Mode", mode), (key, "https://a.example")]);

        Should.Throw<Exception>(() => service.CreateClient()).ToString().ShouldContain(named);
    }

    /// <summary>The built service with --check-config, this environment and nothing else: no store is opened.</summary>
    private static async Task<BufferedCommandResult> CheckConfigAsync(Dictionary<string, string> environment)
    {
        var directory = Directory.CreateTempSubdirectory("orders-mode-").FullName;
        try
        {
            return await OrderServiceProcess
                .Command(OrderServiceProcess.ServiceDll, [ConfigurationCheck.Flag], directory, environment)
                .WithValidation(CommandResultValidation.None).ExecuteBufferedAsync(Ct);
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }
}
