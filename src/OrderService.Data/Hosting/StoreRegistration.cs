using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Options;
using OrderService.Data.Resilience;

namespace OrderService.Data.Hosting;

public static class StoreRegistration
{
    public const string ConnectionStringName = "Orders";
    public const string DefaultSqliteConnectionString = "Data Source=data/orders.db";

    public static IServiceCollection AddOrderStore(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddSettings<StoreOptions>(StoreOptions.SectionName, static (c, o) => c.Bind(o),
            new StoreOptionsValidator(), configuration);
        services.AddSingleton<IValidateOptions<StoreOptions>>(new ConnectionStringValidator(configuration));
        services.AddSingleton<IValidateOptions<StoreOptions>>(sp =>
            new ShippedStoreValidator(sp.GetServices<StoreEngine>()));
        services.AddStoreResilience(configuration);
        services.TryAddSingleton(TimeProvider.System);
        services.AddSingleton(sp => CreateContext(sp, configuration));
        services.AddSingleton(CreateStore);

        // Everything above the port sees the provider's store only through the resilience decorator.
        services.AddSingleton(sp =>
        {
            var provider = sp.GetRequiredService<IOptions<StoreOptions>>().Value.Provider;
            var bundle = sp.GetRequiredService<StoreBundle>();
            return new ResilientCalls(bundle.Schema, bundle.TransientFaults, bundle.Pool,
                StorePipeline.For(sp, provider), StoreTelemetry.SystemName(provider));
        });
        services.AddSingleton(sp =>
            new ResilientOrderStore(sp.GetRequiredService<StoreBundle>().Store,
            sp.GetRequiredService<ResilientCalls>()));
        services.AddSingleton<IOrderStore>(sp => sp.GetRequiredService<ResilientOrderStore>());

        services.AddSingleton(sp => sp.GetRequiredService<StoreBundle>().Schema);
        services.AddSingleton<Keys.IdempotencyKeyCleanup>();
        services.AddHostedService(sp => sp.GetRequiredService<Keys.IdempotencyKeyCleanup>());
        return services;
    }

    // The options' validators have already refused a missing connection string and a provider with no engine.
    private static StoreContext CreateContext(IServiceProvider services, IConfiguration configuration)
    {
        var options = services.GetRequiredService<IOptions<StoreOptions>>().Value;
        var configured = configuration.GetConnectionString(ConnectionStringName);
        return new StoreContext(options,
            string.IsNullOrWhiteSpace(configured) ? DefaultSqliteConnectionString : configured, services);
    }

    private static StoreBundle CreateStore(IServiceProvider services)
    {
        var context = services.GetRequiredService<StoreContext>();
        return services.GetServices<StoreEngine>().Last(e => e.Provider == context.Options.Provider).Create(context);
    }
}

/// <summary>One engine's store factory, registered by its project for the host to choose by Store:Provider.</summary>
public sealed record StoreEngine(StoreProvider Provider, Func<StoreContext, StoreBundle> Create);

/// <summary>What a provider's factory needs: the validated options, its connection string and the container.</summary>
public sealed record StoreContext(StoreOptions Options, string ConnectionString, IServiceProvider Services)
{
    /// <summary>The engine's own section, as its registration bound it (its defaults where none did).</summary>
    public TOptions Settings<TOptions>() where TOptions : class, new() =>
        Services.GetService<IOptions<TOptions>>()?.Value ?? new TOptions();
}

/// <summary>What a provider's factory hands back; disposing it disposes the provider's pools and writers.</summary>
public sealed record StoreBundle(
    IOrderStore Store,
    IStoreSchema Schema,
    ITransientFaults TransientFaults,
    IAsyncDisposable? Resources = null,
    IConnectionPool? Pool = null)
    : IAsyncDisposable
{
    public ValueTask DisposeAsync() => Resources?.DisposeAsync() ?? ValueTask.CompletedTask;
}
