using Microsoft.Data.SqlClient;
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
        var connections = new SqlServerConnections(() => new SqlConnection(connectionString), options.ReadIsolation);
        var store = new RelationalOrderStore(new SqlServerDialect(options.ReadIsolation), connections, options);
        var schema = new SqlServerSchema(connectionString, options.CommandTimeoutSeconds);
        return new StoreBundle(store, schema, SqlServerTransientFaults.Instance, new PoolRelease(connectionString));
    }

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

        // SqlClient's default (Auto) blocks the pool after a failed open against anything but Azure SQL: for up to a
        // minute every open fails at once with the cached error. The resilience pipeline already bounds and spaces the
        // retries, and a blocked pool turned one slow handshake into a run of 503s with the server answering again.
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

    /// <summary>Empties this store's connection pool when the host stops (tests start many hosts in one process).</summary>
    private sealed class PoolRelease(string connectionString) : IAsyncDisposable
    {
        public ValueTask DisposeAsync()
        {
            using var connection = new SqlConnection(connectionString);
            SqlConnection.ClearPool(connection);
            return ValueTask.CompletedTask;
        }
    }
}
