using Npgsql;
using OrderService.Integration.Tests.Conformance.Infrastructure;
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
        _unavailableReason = await server.UnavailableReasonAsync();
        await base.InitializeAsync();
    }

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
}
