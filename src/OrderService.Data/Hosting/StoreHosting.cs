using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;

namespace OrderService.Data.Hosting;

/// <summary>The store as a host runs it: chosen by the Store:* keys and warmed up after start-up.</summary>
public static class StoreHosting
{
    public static IHostApplicationBuilder AddOrderStore(this IHostApplicationBuilder builder)
    {
        builder.Services.AddOrderStore(builder.Configuration);
        builder.Services.AddHostedService<StoreWarmUp>();
        return builder;
    }
}
