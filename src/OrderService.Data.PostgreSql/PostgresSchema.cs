using System.Data.Common;
using OrderService.Data.PostgreSql.Citus;
using OrderService.Data.Relational;

namespace OrderService.Data.PostgreSql;

/// <summary>A layout's schema on PostgreSQL.</summary>
public sealed class PostgresSchema(PostgresDatabase database, StoreLayout layout)
    : SchemaDialect(new SchemaHistory(layout, SchemaScripts.Load(layout, typeof(PostgresSchema).Assembly))),
        IStoreSchema
{
    // Constants shared by every process of this service, one per layout.
    private const long RelationalLockKey = 0x4F52444552535643;
    private const long DocumentLockKey = 7953724170454066019;

    public override string ProviderName => PostgresDatabase.ProviderName;

    public Task EnsureCreatedAsync(CancellationToken cancellationToken) => ApplyAsync(cancellationToken);

    public Task<IReadOnlyList<TableRows>> FindOtherLayoutRowsAsync(CancellationToken cancellationToken) =>
        database.CountRowsAsync(OtherLayoutTables, cancellationToken);

    public override async Task<DbConnection> OpenAsync(CancellationToken cancellationToken) =>
        await database.OpenForSchemaAsync(cancellationToken);

    protected override string LockStatement =>
        $"SELECT pg_advisory_xact_lock({(layout == StoreLayout.Document ? DocumentLockKey : RelationalLockKey)})";

    public override string CreateVersionsTable(string table) =>
        $"CREATE TABLE IF NOT EXISTS {table} (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())";

    public override string RecordVersion(string table) => $"INSERT INTO {table} (version) VALUES (@version)";

    protected override Task AfterScriptsAsync(DbConnection connection, DbTransaction transaction,
        CancellationToken cancellationToken) =>
        database.Distribution == PostgreSqlDistribution.Citus
            ? CitusSchema.DistributeAsync(connection, transaction, layout, cancellationToken)
            : Task.CompletedTask;
}
