using Microsoft.Data.SqlClient;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using OrderService.Data.Hosting;
using OrderService.Data.Relational;

namespace OrderService.Data.SqlServer;

public static class SqlServerStores
{
    public static StoreBundle Create(StoreContext context)
    {
        var options = context.Options;
        var connectionString = NormalizeConnectionString(context.ConnectionString, options);
        var store = Relational(connectionString, options);
        var schema = new SqlServerSchema(connectionString);
        var readFrom = context.Settings<SqlServerStoreOptions>().ReadConnectionString;
        if (string.IsNullOrWhiteSpace(readFrom))
        {
            return new StoreBundle(store, schema, SqlServerTransientFaults.Instance, new PoolRelease(connectionString));
        }

        // Reads on the secondary's own pool; the schema is migrated on the primary only and reaches the secondary by
        // replication.
        var readConnectionString = NormalizeConnectionString(readFrom, options);
        (context.Services.GetService<ILoggerFactory>() ?? NullLoggerFactory.Instance)
            .CreateLogger(typeof(SqlServerStores)).LogInformation(
            "Store:SqlServer:ReadConnectionString is set: GET by id, the batch and the customer listing read from " +
            "the secondary; writes stay on the primary.");
        var reads = new StandbyReadsOrderStore(store, Relational(readConnectionString, options));
        return new StoreBundle(reads, schema, SqlServerTransientFaults.Instance,
            new PoolRelease(connectionString, readConnectionString));
    }

    private static RelationalOrderStore Relational(string connectionString, StoreOptions options) =>
        new(new SqlServerDialect(options.ReadIsolation),
            new SqlServerConnections(() => new SqlConnection(connectionString), options.ReadIsolation), options);

    /// <summary>The operator's connection string with our defaults where it says nothing.</summary>
    public static string NormalizeConnectionString(string connectionString, StoreOptions options)
    {
        var builder = new SqlConnectionStringBuilder(connectionString);
        if (!builder.ShouldSerialize("Connect Timeout"))
        {
            builder.ConnectTimeout = options.CommandTimeoutSeconds;
        }

        // SqlClient's default blocks the pool after a failed open, failing every open with the cached error for up to a
        // minute.
        if (!builder.ShouldSerialize("Pool Blocking Period"))
        {
            builder.PoolBlockingPeriod = PoolBlockingPeriod.NeverBlock;
        }

        if (!builder.ShouldSerialize("Application Name"))
        {
            builder.ApplicationName = "OrderService";
        }

        return builder.ConnectionString;
    }

    private sealed class PoolRelease(params string[] connectionStrings) : IAsyncDisposable
    {
        public ValueTask DisposeAsync()
        {
            foreach (var connectionString in connectionStrings)
            {
                using var connection = new SqlConnection(connectionString);
                SqlConnection.ClearPool(connection);
            }

            return ValueTask.CompletedTask;
        }
    }
}
