using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using OrderService.Apis;
using OrderService.Data.Orders;
using OrderService.Contracts;
using Shouldly;
using Xunit;
using JsonOptions = Microsoft.AspNetCore.Http.Json.JsonOptions;

namespace OrderService.Integration.Tests.Api;

/// <summary>What start-up does off the path to the first answer (docs/cold-start.md): the request contract is warmed up in the background.</summary>
public sealed class StartUpTests(ApiHost host) : IClassFixture<ApiHost>
{
    private static CancellationToken Ct => ApiHost.Ct;

    [Fact]
    public async Task The_contract_warm_up_runs_its_whole_round_with_the_api_serializer_options()
    {
        await using var service = host.Create();
        var api = service.Services.GetRequiredService<IOptions<JsonOptions>>().Value.SerializerOptions;

        // The published service runs without reflection-based JSON (JsonSerializerIsReflectionEnabledByDefault); this
        // test process has it, and would serialize a type missing from the contract by reflection. So the round runs on
        // the API's options with the two contexts as their only resolvers, as in the service.
        var options = new JsonSerializerOptions(api)
        {
            TypeInfoResolver = JsonTypeInfoResolver.Combine(OrderJsonContext.Default, OrderServiceJsonContext.Default),
        };

        // Throws if the sample request stops passing the order rules, or if a type it writes is missing from the contract.
        await ContractWarmUp.RunAsync(options, Ct);
    }

    [Fact]
    public async Task The_service_runs_the_contract_warm_up_as_it_starts()
    {
        await using var service = host.Create();
        var warmUp = service.Services.GetServices<IHostedService>().OfType<ContractWarmUp>().ShouldHaveSingleItem("the service registers the warm-up");

        await warmUp.ExecuteTask!.WaitAsync(TimeSpan.FromSeconds(30), Ct);
        warmUp.ExecuteTask.IsCompletedSuccessfully.ShouldBeTrue();
    }
}
