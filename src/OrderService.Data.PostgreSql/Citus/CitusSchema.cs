using System.Data.Common;
using Dapper;
using OrderService.Data.Relational;

namespace OrderService.Data.PostgreSql.Citus;

/// <summary>Distribution=Citus: distributes the tables after the scripts; refuses a database without citus.</summary>
internal static class CitusSchema
{
    public static async Task DistributeAsync(DbConnection connection, DbTransaction transaction, StoreLayout layout,
        CancellationToken cancellationToken)
    {
        var hasCitus = await connection.ExecuteScalarAsync<bool>(new CommandDefinition(
            "SELECT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'citus')", transaction: transaction,
                cancellationToken: cancellationToken));
        if (!hasCitus)
        {
            throw new StoreUnavailableException(
                $"Store:PostgreSql:Distribution is Citus, but database \"{connection.Database}\" has no citus " +
                $"extension. As a superuser: create the database on every " +
                "worker too (CREATE DATABASE on each, or on the coordinator with " +
                "citus.enable_create_database_propagation = on), then in it on every node " +
                "CREATE EXTENSION citus; then in it on the coordinator SELECT citus_set_coordinator_host(<host>, " +
                "<port>); and SELECT citus_add_node(<host>, <port>); for each worker.")
            { NeedsOperator = true };
        }

        var script = SchemaScripts.Load("Citus", typeof(CitusSchema).Assembly)
            .Single(s => s.Name.EndsWith(layout.ToString(), StringComparison.Ordinal));
        await connection.ExecuteAsync(
            new CommandDefinition(script.Sql, transaction: transaction, cancellationToken: cancellationToken));
    }
}
