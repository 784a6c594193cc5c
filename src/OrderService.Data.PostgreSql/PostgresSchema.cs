using System.Data.Common;
using OrderService.Data.PostgreSql.Citus;
using OrderService.Data.Relational;

namespace OrderService.Data.PostgreSql;

/// <summary>A layout's schema on PostgreSQL, applied by <see cref="SchemaRunner"/>.</summary>
public sealed class PostgresSchema : SchemaDialect, IStoreSchema
{
    // Constants shared by every process of this service, one per layout.
    private const long RelationalLockKey = 0x4F52444552535643;
    private const long DocumentLockKey = 7953724170454066019;

    private readonly PostgresDatabase _database;
    private readonly SchemaRunner _runner;

    public PostgresSchema(PostgresDatabase database, StoreLayout layout)
    {
        _database = database;
        _runner = new SchemaRunner(this,
            new SchemaHistory(layout, SchemaScripts.Load(layout, typeof(PostgresSchema).Assembly)));
    }

    public override string ProviderName => PostgresDatabase.ProviderName;

    public Task EnsureCreatedAsync(CancellationToken cancellationToken) => _runner.ApplyAsync(cancellationToken);

    public Task<IReadOnlyList<TableRows>> FindOtherLayoutRowsAsync(CancellationToken cancellationToken) =>
        _database.CountRowsAsync(
            LayoutTables.Of(_runner.History.Layout == StoreLayout.Document ? StoreLayout.Relational
            : StoreLayout.Document), cancellationToken);

    public override async Task<DbConnection> OpenAsync(CancellationToken cancellationToken) =>
        await _database.OpenForSchemaAsync(cancellationToken);

    protected override string LockStatement(SchemaHistory history) =>
        $"SELECT pg_advisory_xact_lock({(history.Layout == StoreLayout.Document
            ? DocumentLockKey : RelationalLockKey)})";

    public override string CreateVersionsTable(string table) =>
        $"CREATE TABLE IF NOT EXISTS {table} (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())";

    public override string RecordVersion(string table) => $"INSERT INTO {table} (version) VALUES (@version)";

    public override Task AfterScriptsAsync(DbConnection connection, DbTransaction? transaction, SchemaHistory history,
        CancellationToken cancellationToken) =>
        _database.Distribution == PostgreSqlDistribution.Citus
            ? CitusSchema.DistributeAsync(connection, transaction!, history.Layout, cancellationToken)
            : Task.CompletedTask;
}
