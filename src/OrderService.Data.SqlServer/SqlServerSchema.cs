using System.Data.Common;
using Dapper;
using Microsoft.Data.SqlClient;
using OrderService.Data.Relational;
using OrderService.Data.Resilience;

namespace OrderService.Data.SqlServer;

public sealed class SqlServerSchema(string connectionString)
    : SchemaDialect(new SchemaHistory(StoreLayout.Relational, Scripts())), IStoreSchema
{
    private static readonly TimeSpan PreparationTimeout = TimeSpan.FromSeconds(120);

    private SharedRun? _preparation;

    /// <summary>CREATE DATABASE takes no parameters, so the name goes through QUOTENAME inside dynamic SQL.</summary>
    public const string CreateDatabaseIfMissing = """
        IF DB_ID(@database) IS NULL
        BEGIN
            DECLARE @create nvarchar(300) = N'CREATE DATABASE ' + QUOTENAME(@database);
            EXEC sp_executesql @create;
        END
        """;

    /// <summary>Held until the transaction ends: concurrent start-ups apply the scripts one after another.</summary>
    public const string SchemaLock = """
        DECLARE @result int;
        EXEC @result = sp_getapplock @Resource = N'OrderService.Schema', @LockMode = N'Exclusive',
            @LockOwner = N'Transaction', @LockTimeout = 60000;
        IF @result < 0 THROW 50001, N'Could not acquire the schema lock.', 1;
        """;

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

    public override async Task<DbConnection> OpenAsync(CancellationToken cancellationToken)
    {
        var connection = new SqlConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        StoreTelemetry.ConnectionOpened(SqlServerDialect.Provider, "schema");
        return connection;
    }

    protected override string LockStatement => SchemaLock;

    public override string CreateVersionsTable(string table) => $"""
        IF OBJECT_ID(N'dbo.{table}', N'U') IS NULL
            CREATE TABLE dbo.{table} (
                version     int NOT NULL CONSTRAINT pk_{table} PRIMARY KEY,
                applied_at  datetimeoffset(6) NOT NULL
            );
        """;

    public override string AppliedVersions(string table) => $"SELECT version FROM dbo.{table};";

    public override string RecordVersion(string table) =>
        $"INSERT INTO dbo.{table} (version, applied_at) VALUES (@version, SYSUTCDATETIME());";

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
            using var activity = StoreTelemetry.Command(SqlServerDialect.Provider, "schema.database",
                CreateDatabaseIfMissing, IsolationInForce);
            await connection.ExecuteAsync(new CommandDefinition(CreateDatabaseIfMissing, new { database },
                commandTimeout: CommandTimeoutSeconds, cancellationToken: cancellationToken));
        }
        catch (SqlException e) when (e.Number == 1801)
        {
            // "Database already exists": another instance created it between our check and our CREATE.
        }
    }

    private async Task<bool> TargetDatabaseOpensAsync(CancellationToken cancellationToken)
    {
        try
        {
            await using var connection = await OpenAsync(cancellationToken);
            return true;
        }
        catch (SqlException e) when (e.Class < 20)
        {
            // The server answered but would not open the database: the path through master creates it.
            return false;
        }
    }
}
