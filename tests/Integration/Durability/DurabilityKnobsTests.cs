using System.Data.Common;
using OrderService.Data;
using OrderService.Data.PostgreSql;
using OrderService.Data.Sqlite;
using OrderService.Integration.Tests.StorePort;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Durability;

/// <summary>
/// The durability keys reach the database session the stores write on: read back from the server
/// itself, not from our own settings objects.
/// </summary>
[Collection(nameof(RelationalStoresCollection))]
public sealed class DurabilityKnobsTests(RelationalStores stores)
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory]
    [Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
    [InlineData(PostgreSqlSynchronousCommit.On, "on")]
    [InlineData(PostgreSqlSynchronousCommit.Off, "off")]
    [InlineData(PostgreSqlSynchronousCommit.Local, "local")]
    public async Task PostgreSql_sessions_run_with_the_configured_synchronous_commit_and_group_commit_window(
        PostgreSqlSynchronousCommit synchronousCommit, string expected)
    {
        var options = new StoreOptions { Provider = StoreProvider.PostgreSql };
        await using var database = StoreContexts.PostgresDatabase(await stores.NewDatabaseAsync(Engine.PostgreSql),
            options, o => (o.SynchronousCommit, o.CommitDelayMicroseconds, o.CommitSiblings) =
                (synchronousCommit, 250, 3));
        await using var connection = await database.OpenAsync("test", Ct);

        (await ShowAsync(connection, "SHOW synchronous_commit")).ShouldBe(expected);
        (await ShowAsync(connection, "SHOW commit_delay")).ShouldBe("250");
        (await ShowAsync(connection, "SHOW commit_siblings")).ShouldBe("3");
    }

    [Fact]
    [Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
    public async Task PostgreSql_leaves_the_servers_group_commit_settings_alone_by_default()
    {
        await using var database = StoreContexts.PostgresDatabase(await stores.NewDatabaseAsync(Engine.PostgreSql), new StoreOptions());
        await using var connection = await database.OpenAsync("test", Ct);

        (await ShowAsync(connection, "SHOW synchronous_commit")).ShouldBe("on");
        (await ShowAsync(connection, "SHOW commit_delay")).ShouldBe("0");
    }

    [Theory]
    [Trait(StoreTraits.Store, StoreTraits.SQLite)]
    [InlineData(SqliteSynchronous.Full, "2")]
    [InlineData(SqliteSynchronous.Normal, "1")]
    [InlineData(SqliteSynchronous.Off, "0")]
    public async Task Sqlite_connections_run_with_the_configured_synchronous_level_in_WAL_mode(SqliteSynchronous synchronous, string expected)
    {
        await using var database = new SqliteDatabase(await stores.NewDatabaseAsync(Engine.Sqlite), new StoreOptions(),
            new SqliteStoreOptions { Synchronous = synchronous });
        database.PrepareFile();
        await using var connection = database.OpenReader();

        (await ShowAsync(connection, "PRAGMA synchronous")).ShouldBe(expected);
        (await ShowAsync(connection, "PRAGMA journal_mode")).ShouldBe("wal");
    }

    [Fact]
    [Trait(StoreTraits.Store, StoreTraits.SQLite)]
    public async Task Sqlite_databases_sharing_a_connection_string_keep_their_own_level_on_pooled_connections()
    {
        // The driver pools native connections by connection string alone, and a pooled open skips the pragmas its
        // native connection already ran: it must not skip them after another database ran other ones.
        var file = await stores.NewDatabaseAsync(Engine.Sqlite);
        await using var durable = new SqliteDatabase(file, new StoreOptions(),
            new SqliteStoreOptions { Synchronous = SqliteSynchronous.Full });
        await using var fast = new SqliteDatabase(file, new StoreOptions(),
            new SqliteStoreOptions { Synchronous = SqliteSynchronous.Off });
        durable.PrepareFile();

        for (var round = 0; round < 3; round++)
        {
            await using (var connection = durable.OpenReader())
            {
                (await ShowAsync(connection, "PRAGMA synchronous")).ShouldBe("2");
            }

            await using (var connection = fast.OpenReader())
            {
                (await ShowAsync(connection, "PRAGMA synchronous")).ShouldBe("0");
            }
        }
    }

    private static async Task<string?> ShowAsync(DbConnection connection, string sql)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = sql;
        return Convert.ToString(await command.ExecuteScalarAsync(Ct), System.Globalization.CultureInfo.InvariantCulture);
    }
}
