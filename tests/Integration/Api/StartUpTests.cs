using System.Net;
using System.Net.Http.Json;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using OrderService.Apis;
using OrderService.Data;
using Shouldly;
using Xunit;
using JsonOptions = Microsoft.AspNetCore.Http.Json.JsonOptions;

namespace OrderService.Integration.Tests.Api;

/// <summary>
/// What start-up does off the path to the first answer (docs/cold-start.md): the hosted services build
/// the store on their own threads, and the request contract is warmed up in the background.
/// </summary>
public sealed class StartUpTests(ApiHost host) : IClassFixture<ApiHost>
{
    private static CancellationToken Ct => ApiHost.Ct;

    [Fact]
    public async Task The_service_listens_while_the_store_is_still_being_built()
    {
        using var storeMayBeBuilt = new ManualResetEventSlim();
        await using var service = host.Create().WithWebHostBuilder(web => web.ConfigureTestServices(services =>
        {
            // The store's construction waits for the test, wherever it runs.
            var bundle = services.Single(descriptor => descriptor.ServiceType == typeof(StoreBundle));
            services.Remove(bundle);
            services.AddSingleton(provider =>
            {
                storeMayBeBuilt.Wait(TimeSpan.FromSeconds(60));
                return (StoreBundle)bundle.ImplementationFactory!(provider);
            });
        }));
        try
        {
            var starting = Task.Run(service.CreateClient, Ct);
            (await Task.WhenAny(starting, Task.Delay(TimeSpan.FromSeconds(20), Ct))).ShouldBe(starting,
                "the host waited for the store before it listened: a hosted service takes the store in its constructor");
            using var client = await starting;
            using var live = await client.GetAsync("/health/live", Ct);
            live.StatusCode.ShouldBe(HttpStatusCode.OK);

            storeMayBeBuilt.Set();
            using var created = await client.PostAsJsonAsync("/orders", ApiHost.ValidOrder(ApiHost.NewCustomer()), Ct);
            created.StatusCode.ShouldBe(HttpStatusCode.Created);
        }
        finally
        {
            storeMayBeBuilt.Set();
        }
    }

    [Fact]
    public async Task The_contract_warm_up_runs_its_whole_round_with_the_api_serializer_options()
    {
        await using var service = host.Create();
        var options = service.Services.GetRequiredService<IOptions<JsonOptions>>().Value.SerializerOptions;

        // Throws if the sample request stops passing the order rules, or if a type it writes is missing from the contract.
        await ContractWarmUp.RunAsync(options, Ct);
    }
}
