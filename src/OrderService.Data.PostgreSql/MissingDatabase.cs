using Microsoft.Extensions.Logging;
using Npgsql;
using OrderService.Data.Resilience;

namespace OrderService.Data.PostgreSql;

/// <summary>
/// A missing PostgreSQL database is created if the role may; else every call answers 503 with the fix.
/// </summary>
internal sealed class MissingDatabase(string connectionString, ILogger logger)
{
    private static readonly TimeSpan CreationTimeout = TimeSpan.FromSeconds(60);

    private static readonly string[] MaintenanceDatabases = ["postgres", "template1"];

    private SharedRun? _creation;

    public static bool IsMissing(Exception exception) =>
        exception is PostgresException { SqlState: PostgresErrorCodes.InvalidCatalogName };

    /// <summary>Creates the database once; a caller that gives up only stops waiting, so it never restarts.</summary>
    public Task CreateOrExplainAsync(CancellationToken cancellationToken) =>
        LazyInitializer.EnsureInitialized(ref _creation, () => new SharedRun(CreateAsync, CreationTimeout))
            .WaitAsync(cancellationToken);

    private async Task CreateAsync(CancellationToken cancellationToken)
    {
        var target = new NpgsqlConnectionStringBuilder(connectionString);
        var name = target.Database ?? target.Username ?? "postgres";
        await using var maintenance = await OpenMaintenanceAsync(target, name, cancellationToken);
        await using var currentUser = new NpgsqlCommand("SELECT current_user::text", maintenance);
        var role = (string)(await currentUser.ExecuteScalarAsync(cancellationToken))!;
        try
        {
            await using var create = new NpgsqlCommand($"CREATE DATABASE {Quote(name)}", maintenance);
            await create.ExecuteNonQueryAsync(cancellationToken);
            logger.LogWarning("Created the PostgreSQL database \"{Database}\": ConnectionStrings:Orders names it, it " +
                "did not exist, and role \"{Role}\" may create databases.", name, role);
        }
        catch (PostgresException exists) when (exists.SqlState == PostgresErrorCodes.DuplicateDatabase)
        {
            // Another instance created it between our connect and our CREATE: that is what we wanted.
        }
        catch (PostgresException denied) when (denied.SqlState == PostgresErrorCodes.InsufficientPrivilege)
        {
            throw NotAllowed(name, role);
        }
    }

    private static async Task<NpgsqlConnection> OpenMaintenanceAsync(NpgsqlConnectionStringBuilder target, string name,
        CancellationToken cancellationToken)
    {
        Exception? last = null;
        foreach (var database in MaintenanceDatabases)
        {
            var builder = new NpgsqlConnectionStringBuilder(target.ConnectionString) { Database = database, Pooling =
                false };
            var connection = new NpgsqlConnection(builder.ConnectionString);
            try
            {
                await connection.OpenAsync(cancellationToken);
                return connection;
            }
            catch (NpgsqlException failed)
            {
                await connection.DisposeAsync();
                last = failed;
            }
        }

        throw new StoreUnavailableException(
            $"PostgreSQL database \"{name}\" does not exist, and the service could not reach a maintenance database " +
            $"(postgres, template1) to create it: {last?.Message}",
            last) { NeedsOperator = true };
    }

    private static StoreUnavailableException NotAllowed(string name, string role) => new(
        $"PostgreSQL database \"{name}\" does not exist, and role \"{role}\" may not create it (it lacks CREATEDB). " +
        $"Create it once as a superuser: CREATE DATABASE {Quote(name)} OWNER {Quote(role)}; or let the role create " +
        $"it: ALTER ROLE {Quote(role)} CREATEDB;") { NeedsOperator = true };

    private static string Quote(string identifier) => "\"" + identifier.Replace("\"", "\"\"", StringComparison.Ordinal)
        + "\"";
}
