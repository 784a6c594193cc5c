using Microsoft.Data.SqlClient;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using OrderService.Data.Payments;
using OrderService.Data.Relational;

namespace OrderService.Data.SqlServer;

/// <summary>
/// Builds the SQL Server store: the relational engine with T-SQL (<see cref="SqlServerDialect"/>),
/// SqlClient connections and the embedded schema. Relational layout only (validated at start-up).
/// </summary>
public static class SqlServerStores
{
    public static StoreBundle Create(StoreContext context)
    {
        var options = context.Options;
        var connectionString = NormalizeConnectionString(context.ConnectionString, options);
        var store = Relational(connectionString, options, context.Payments());
        var schema = new SqlServerSchema(connectionString);
        if (string.IsNullOrWhiteSpace(options.SqlServer.ReadConnectionString))
        {
            return new StoreBundle(store, schema, SqlServerTransientFaults.Instance, new PoolRelease(connectionString));
        }

        // Reads on the secondary's own pool; the schema is migrated on the primary only and reaches the secondary by
        // replication. The same fallback on a miss as a PostgreSQL standby's (StandbyReadsOrderStore).
        var readConnectionString = NormalizeConnectionString(options.SqlServer.ReadConnectionString, options);
        (context.Services.GetService<ILoggerFactory>() ?? NullLoggerFactory.Instance).CreateLogger(typeof(SqlServerStores)).LogInformation(
            "Store:SqlServer:ReadConnectionString is set: GET by id, the batch and the customer listing read from the secondary; writes stay on the primary.");
        var reads = new StandbyReadsOrderStore(store, Relational(readConnectionString, options, context.Payments()));
        return new StoreBundle(reads, schema, SqlServerTransientFaults.Instance, new PoolRelease(connectionString, readConnectionString));
    }

    private static RelationalOrderStore Relational(string connectionString, StoreOptions options, IPaymentAuthorizer payments) =>
        new(new SqlServerDialect(options.ReadIsolation), new SqlServerConnections(() => new SqlConnection(connectionString), options.ReadIsolation), options, payments);

    /// <summary>
    /// The operator's connection string with our defaults where it says nothing: a connect timeout as
    /// short as a command's (SqlClient waits 15 s by default, far beyond the time a request may take before
    /// it must get its 503), a pool that never blocks after a failed open, and an application name that shows up in sys.dm_exec_sessions.
    /// </summary>
    public static string NormalizeConnectionString(string connectionString, StoreOptions options)
    {
        var builder = new SqlConnectionStringBuilder(connectionString);
        if (!builder.ShouldSerialize("Connect Timeout"))
        {
            builder.ConnectTimeout = options.CommandTimeoutSeconds;
        }

        // SqlClient's default (Auto) blocks the pool after a failed open, failing every open with the cached error for up
        // to a minute: one slow handshake would become a run of 503s. The resilience pipeline already spaces the retries.
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

    /// <summary>Empties this store's connection pools when the host stops (tests start many hosts in one process).</summary>
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
