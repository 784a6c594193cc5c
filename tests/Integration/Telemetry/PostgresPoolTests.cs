using System.Collections.Concurrent;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Npgsql;
using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Data.PostgreSql;
using OrderService.Integration.Tests.StorePort;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Telemetry;

/// <summary>
/// The PostgreSQL store's pool is the container's Npgsql data source (AddPostgreSqlOrderStore): built with the store's
/// tuning and with the host's logger factory, so that Npgsql's own log lines reach the host's logging.
/// </summary>
[Collection(nameof(RelationalStoresCollection))]
[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class PostgresPoolTests(RelationalStores stores)
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task The_store_opens_the_containers_tuned_data_source_which_logs_through_the_hosts_logger_factory()
    {
        var categories = new ConcurrentQueue<string>();
        var options = new StoreOptions { Provider = StoreProvider.PostgreSql };
        var connectionString = await stores.NewDatabaseAsync(Engine.PostgreSql);
        await using var services = new ServiceCollection()
            .AddLogging(logging => logging.SetMinimumLevel(LogLevel.Trace).AddProvider(new Categories(categories)))
            .AddPostgreSqlOrderStore()
            .AddSingleton(container => new StoreContext(options, connectionString, container))
            .BuildServiceProvider();
        var dataSource = services.GetRequiredKeyedService<NpgsqlDataSource>(PostgreSqlRegistration.PrimaryDataSource);

        await using var database = PostgreSqlStores.Database(services.GetRequiredService<StoreContext>());
        database.DataSource.ShouldBeSameAs(dataSource);
        var tuned = new NpgsqlConnectionStringBuilder(dataSource.ConnectionString);
        tuned.MaxPoolSize.ShouldBe(128);
        tuned.NoResetOnClose.ShouldBeTrue();

        await using (var connection = await database.OpenAsync("test", Ct))
        await using (var command = new NpgsqlCommand("SELECT 1", connection))
        {
            (await command.ExecuteScalarAsync(Ct)).ShouldBe(1);
        }

        categories.ShouldContain(category => category.StartsWith("Npgsql", StringComparison.Ordinal), "Npgsql logged nothing through the container's logger factory");
    }

    /// <summary>The category of every line logged.</summary>
    private sealed class Categories(ConcurrentQueue<string> categories) : ILoggerProvider
    {
        public ILogger CreateLogger(string categoryName) => new Category(categoryName, categories);

        public void Dispose()
        {
        }

        private sealed class Category(string name, ConcurrentQueue<string> categories) : ILogger
        {
            public IDisposable? BeginScope<TState>(TState state)
                where TState : notnull => null;

            public bool IsEnabled(LogLevel logLevel) => true;

            public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
                categories.Enqueue(name);
        }
    }
}
