using System.Data.Common;
using Dapper;
using Microsoft.Data.Sqlite;
using Npgsql;
using OrderService.Data;
using OrderService.Data.PostgreSql;
using OrderService.Data.Relational;
using OrderService.Data.Sqlite;
using OrderService.Integration.Tests.StorePort;
using OrderService.Integration.Tests.Traits;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Schema;

/// <summary>
/// A database whose schema the earlier runners wrote (each layout's versions table as they created it, the scripts
/// recorded one row per version) is upgraded by <see cref="SchemaDialect"/>: it applies only what is missing and keeps
/// the rows.
/// </summary>
[Collection(nameof(RelationalStoresCollection))]
public sealed class SchemaUpgradeTests(RelationalStores stores)
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory]
    [StoreData(Engine.Sqlite, StoreLayout.Relational)]
    [StoreData(Engine.Sqlite, StoreLayout.Document)]
    [StoreData(Engine.PostgreSql, StoreLayout.Relational)]
    [StoreData(Engine.PostgreSql, StoreLayout.Document)]
    public async Task A_schema_the_earlier_runner_wrote_is_upgraded_with_the_missing_scripts_only(Engine engine, StoreLayout layout)
    {
        var scripts = SchemaScripts.Load(layout == StoreLayout.Document ? "DocumentSchema" : "Schema",
            engine == Engine.Sqlite ? typeof(SqliteStores).Assembly : typeof(PostgreSqlStores).Assembly);
        var versionsTable = new SchemaHistory(layout, scripts).VersionsTable;
        var database = await stores.NewDatabaseAsync(engine);
        await using (var connection = await OpenAsync(engine, database))
        {
            await connection.ExecuteAsync(EarlierVersionsTable(engine, layout));
            foreach (var script in scripts.Take(scripts.Count - 1))
            {
                await connection.ExecuteAsync(script.Sql);
                await connection.ExecuteAsync(EarlierRecord(engine, layout), new { version = script.Version, applied_at = "2026-11-01T00:00:00.000000Z" });
            }
        }

        await using var store = await stores.OpenAsync(engine, connectionString: database, layout: layout);

        (await store.QueryAsync<long>($"SELECT version FROM {versionsTable} ORDER BY version")).ShouldBe(scripts.Select(s => (long)s.Version));
        var created = await store.CreateOrderAsync();
        (await store.Store.GetAsync(created.Id, Ct)).ShouldNotBeNull();
    }

    /// <summary>The versions table exactly as the runner of each engine and layout created it before there was one runner.</summary>
    private static string EarlierVersionsTable(Engine engine, StoreLayout layout) => (engine, layout) switch
    {
        (Engine.Sqlite, StoreLayout.Relational) => "CREATE TABLE IF NOT EXISTS schema_versions (version INTEGER NOT NULL PRIMARY KEY, applied_at TEXT NOT NULL);",
        (Engine.Sqlite, _) => "CREATE TABLE IF NOT EXISTS document_schema_versions (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)",
        (_, StoreLayout.Relational) => "CREATE TABLE IF NOT EXISTS schema_versions (version int PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now());",
        _ => "CREATE TABLE IF NOT EXISTS document_schema_versions (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    };

    private static string EarlierRecord(Engine engine, StoreLayout layout)
    {
        var table = layout == StoreLayout.Document ? "document_schema_versions" : "schema_versions";
        return engine == Engine.Sqlite
            ? $"INSERT INTO {table} (version, applied_at) VALUES (@version, @applied_at)"
            : $"INSERT INTO {table} (version) VALUES (@version)";
    }

    private static async Task<DbConnection> OpenAsync(Engine engine, string connectionString)
    {
        DbConnection connection = engine == Engine.Sqlite ? new SqliteConnection(connectionString) : new NpgsqlConnection(connectionString);
        await connection.OpenAsync(Ct);
        return connection;
    }
}
