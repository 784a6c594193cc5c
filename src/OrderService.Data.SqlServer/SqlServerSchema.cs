using System.Data.Common;
using Dapper;
using Microsoft.Data.SqlClient;
using OrderService.Data.Relational;
using OrderService.Data.Resilience;

namespace OrderService.Data.SqlServer;

/// <summary>The relational schema on SQL Server.</summary>
public sealed class SqlServerSchema(string connectionString)
    : SchemaDialect(new SchemaHistory(StoreLayout.Relational, Scripts())), IStoreSchema
{
    private static readonly TimeSpan PreparationTimeout = TimeSpan.FromSeconds(120);

    private SharedRun? _preparation;

    /// <summary>Waits for the preparation, which runs once for every caller.</summary>
    public Task EnsureCreatedAsync(CancellationToken cancellationToken) =>
        LazyInitializer.EnsureInitialized(ref _preparation, () => new SharedRun(PrepareAsync, PreparationTimeout))
            .WaitAsync(cancellationToken);

    private async Task PrepareAsync(CancellationToken cancellationToken)
    {
        await EnsureDatabaseAsync(cancellationToken);
        await ApplyAsync(cancellationToken);
    }

    /// <summary>The embedded scripts (Schema/NNNN_*.sql), in version order.</summary>
    public static IReadOnlyList<SchemaScript> Scripts() =>
        SchemaScripts.Load(StoreLayout.Relational, typeof(SqlServerSchema).Assembly);

    public override string ProviderName => SqlServerDialect.Provider;

    public override int CommandTimeoutSeconds => (int)PreparationTimeout.TotalSeconds;

    public override async Task<DbConnection> OpenAsync(CancellationToken cancellationToken)
    {
        var connection = new SqlConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        StoreTelemetry.ConnectionOpened(SqlServerDialect.Provider, "schema");
        return connection;
    }

    protected override string LockStatement => SqlServerSchemaSql.AcquireLock;

    public override string CreateVersionsTable(string table) =>
        SqlServerSchemaSql.CreateVersionsTable.Replace("schema_versions", table, StringComparison.Ordinal);

    public override string AppliedVersions(string table) =>
        SqlServerSchemaSql.AppliedVersions.Replace("schema_versions", table, StringComparison.Ordinal);

    public override string RecordVersion(string table) =>
        SqlServerSchemaSql.RecordVersion.Replace("schema_versions", table, StringComparison.Ordinal);

    private async Task EnsureDatabaseAsync(CancellationToken cancellationToken)
    {
        var builder = new SqlConnectionStringBuilder(connectionString);
        var database = builder.InitialCatalog;
        if (string.IsNullOrEmpty(database) || string.Equals(database, "master", StringComparison.OrdinalIgnoreCase))
        {
            return;
        }

        if (await TargetDatabaseOpensAsync(cancellationToken))
        {
            // A contained database user may not open master at all: never ask it when the database is there.
            return;
        }

        builder.InitialCatalog = "master";
        await using var connection = new SqlConnection(builder.ConnectionString);
        await connection.OpenAsync(cancellationToken);
        StoreTelemetry.ConnectionOpened(SqlServerDialect.Provider, "schema");
        try
        {
            await Execute(connection, null, "schema.database", SqlServerSchemaSql.CreateDatabaseIfMissing,
                new { database }, cancellationToken);
        }
        catch (SqlException e) when (e.Number == SqlServerSchemaSql.DatabaseAlreadyExists)
        {
            // Another instance created it between our check and our CREATE: that is what we wanted.
        }
    }

    private async Task<bool> TargetDatabaseOpensAsync(CancellationToken cancellationToken)
    {
        try
        {
            await using var connection = new SqlConnection(connectionString);
            await connection.OpenAsync(cancellationToken);
            StoreTelemetry.ConnectionOpened(SqlServerDialect.Provider, "schema");
            return true;
        }
        catch (SqlException e) when (e.Class < 20)
        {
            // The server answered but would not open the database: the path through master creates it.
            return false;
        }
    }

    private Task<int> Execute(SqlConnection connection, SqlTransaction? transaction, string operation, string sql,
        object? parameters, CancellationToken cancellationToken)
    {
        using var activity = StoreTelemetry.Command(SqlServerDialect.Provider, operation, sql, "ReadCommitted");
        return connection.ExecuteAsync(
            new CommandDefinition(sql, parameters, transaction, (int)PreparationTimeout.TotalSeconds,
            cancellationToken: cancellationToken));
    }
}
