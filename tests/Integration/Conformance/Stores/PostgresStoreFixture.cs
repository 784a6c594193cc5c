using Dapper;
using Npgsql;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Servers;
using OrderService.Testing;

namespace OrderService.Integration.Tests.Conformance.Stores;

/// <summary>PostgreSQL: a fresh database per host in the assembly's server; "down" is a closed loopback port.</summary>
public abstract class PostgresStoreFixture(PostgresServer server) : StoreFixture
{
    private string? _unavailableReason;

    protected override string Provider => "PostgreSql";

    public override string? UnavailableReason => _unavailableReason;

    public override async ValueTask InitializeAsync()
    {
        _unavailableReason = await FindUnavailableReasonAsync();
        await base.InitializeAsync();
    }

    /// <summary>Why the server this fixture makes its databases on is not here, or null when it is.</summary>
    protected virtual Task<string?> FindUnavailableReasonAsync() => server.UnavailableReasonAsync();

    protected override async Task<string> CreateDatabaseAsync(string name, CancellationToken cancellationToken)
    {
        var postgres = await server.GetAsync();
        var connectionString = await postgres.CreateDatabaseAsync(name, cancellationToken);

        // The switch matrix keeps one pool per combination for the whole class: cap each (24 x 25 stays
        // under the throwaway cluster's max_connections of 1000) and close idle connections within seconds.
        return new NpgsqlConnectionStringBuilder(connectionString)
        {
            MaxPoolSize = 25,
            ConnectionIdleLifetime = 3,
            ConnectionPruningInterval = 1,
        }.ConnectionString;
    }

    protected override string UnreachableConnectionString() => ThrowawayPostgres.UnreachableConnectionString();

    public override async Task<StoredOrderRows> ReadStoredRowsAsync(string connectionString, Guid id, CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        return Layout == "Document"
            ? StoredRows.Document(await connection.ExecuteScalarAsync<string?>("SELECT CAST(document AS text) FROM order_documents WHERE id = @id", new { id }))
            : await StoredRows.RelationalAsync(connection, id);
    }

    public override async Task<IAsyncDisposable> PlantCreateFailureAsync(string connectionString, string customerPrefix, CancellationToken cancellationToken)
    {
        var prefix = StoredRows.CheckedPrefix(customerPrefix);
        var (table, condition) = Layout == "Document"
            ? ("order_documents", $"starts_with(NEW.customer_id, '{prefix}')")
            : ("order_events", $"NEW.sequence = 1 AND EXISTS (SELECT 1 FROM orders o WHERE o.id = NEW.order_id AND starts_with(o.customer_id, '{prefix}'))");
        await ExecuteAsync(connectionString, PlantPreamble + $"""
            CREATE FUNCTION planted_create_failure() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF {condition} THEN
                    RAISE EXCEPTION 'planted create failure';
                END IF;
                RETURN NEW;
            END $$;
            CREATE TRIGGER planted_create_failure BEFORE INSERT ON {table} FOR EACH ROW EXECUTE FUNCTION planted_create_failure();
            """, cancellationToken);
        return new AsyncCleanup(() => ExecuteAsync(connectionString, PlantPreamble + $"DROP TRIGGER planted_create_failure ON {table}; DROP FUNCTION planted_create_failure();", CancellationToken.None));
    }

    /// <summary>Session settings the planted trigger needs on this engine.</summary>
    protected virtual string PlantPreamble => "";

    private static async Task ExecuteAsync(string connectionString, string sql, CancellationToken cancellationToken)
    {
        await using var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(cancellationToken);
        await connection.ExecuteAsync(new CommandDefinition(sql, cancellationToken: cancellationToken));
    }
}

public sealed class PostgresRelationalStore(PostgresServer server) : PostgresStoreFixture(server)
{
    public override string StoreName => "PostgreSQL relational";
}

/// <summary>The same suite with Store:PostgreSql:GroupCommit off: every request's write commits on its own connection.</summary>
public sealed class PostgresRelationalUngroupedStore(PostgresServer server) : PostgresStoreFixture(server)
{
    public override string StoreName => "PostgreSQL relational, each request committed alone";

    protected override IEnumerable<KeyValuePair<string, string?>> ExtraSettings() => [new("Store:PostgreSql:GroupCommit", "false")];
}

public sealed class PostgresDocumentStore(PostgresServer server) : PostgresStoreFixture(server)
{
    public override string StoreName => "PostgreSQL document";

    protected override string Layout => "Document";
}

/// <summary>The same suite with Store:PostgreSql:GroupCommit off: every request's write commits on its own connection.</summary>
public sealed class PostgresDocumentUngroupedStore(PostgresServer server) : PostgresStoreFixture(server)
{
    public override string StoreName => "PostgreSQL document, each request committed alone";

    protected override string Layout => "Document";

    protected override IEnumerable<KeyValuePair<string, string?>> ExtraSettings() => [new("Store:PostgreSql:GroupCommit", "false")];
}
