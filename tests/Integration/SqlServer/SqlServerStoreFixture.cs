using System.Collections.Concurrent;
using System.Net;
using System.Net.Sockets;
using Microsoft.Data.SqlClient;
using OrderService.Integration.Tests.Conformance;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing.Servers;

namespace OrderService.Integration.Tests.SqlServer;

/// <summary>
/// SQL Server from <see cref="TestServers.SqlServerAsync"/>: ORDERS_TEST_SQLSERVER, else a Testcontainers.MsSql
/// container when Docker answers. With neither (the build machine) every conformance test of this store
/// reports as SKIPPED with the reason: never a silent pass. Each host gets a database of its own, which the
/// service itself creates on first use (as it does for an operator) and the fixture drops at the end.
/// </summary>
public abstract class SqlServerStoreFixture : StoreFixture
{
    public const string ServerVariable = TestServers.SqlServerVariable;

    private TestServer? _selection;
    private readonly string _run = Guid.NewGuid().ToString("N")[..8];
    private readonly ConcurrentBag<string> _databases = [];

    protected override string Provider => "SqlServer";

    private string? _server => _selection?.ConnectionString;

    public override string? UnavailableReason => _selection?.SkipReason is { } reason
        ? $"{reason} To run this store's suite: start Docker, or docker compose up -d --wait mssql, then " +
          $"{ServerVariable}=\"Server=127.0.0.1,1433;User Id=sa;Password=...;TrustServerCertificate=true\" (README)."
        : null;

    public override async ValueTask InitializeAsync()
    {
        _selection = await TestServers.SqlServerAsync();
        await base.InitializeAsync();
    }

    protected override async Task<string> CreateDatabaseAsync(string name, CancellationToken cancellationToken)
    {
        var database = $"orders_{_run}_{new string(name.Select(c => char.IsAsciiLetterOrDigit(c) ? c : '_').ToArray())}";
        _databases.Add(database);

        // Created here rather than left to the service (which would create it too, as it does for an
        // operator), so a slow CREATE DATABASE on a busy machine never eats into a test's first request.
        await ExecuteOnMasterAsync("IF DB_ID(@name) IS NULL BEGIN DECLARE @sql nvarchar(300) = N'CREATE DATABASE ' + QUOTENAME(@name); EXEC sp_executesql @sql; END", database, cancellationToken);

        // One pool per switch combination stays open for the class: cap each.
        return new SqlConnectionStringBuilder(_server) { InitialCatalog = database, MaxPoolSize = 30 }.ConnectionString;
    }

    protected override string UnreachableConnectionString() => SqlServerDown.ConnectionString();

    public override async ValueTask DisposeAsync()
    {
        await base.DisposeAsync();
        if (_databases.IsEmpty)
        {
            return;
        }

        SqlConnection.ClearAllPools();
        foreach (var database in _databases)
        {
            await ExecuteOnMasterAsync(
                "IF DB_ID(@name) IS NOT NULL BEGIN DECLARE @sql nvarchar(400) = N'ALTER DATABASE ' + QUOTENAME(@name) + " +
                "N' SET SINGLE_USER WITH ROLLBACK IMMEDIATE; DROP DATABASE ' + QUOTENAME(@name); EXEC sp_executesql @sql; END",
                database,
                CancellationToken.None);
        }
    }

    /// <summary>Runs <paramref name="sql"/> on master with @name = <paramref name="database"/> (names go through QUOTENAME, never into the text).</summary>
    private async Task ExecuteOnMasterAsync(string sql, string database, CancellationToken cancellationToken)
    {
        await using var master = new SqlConnection(new SqlConnectionStringBuilder(_server) { InitialCatalog = "master", Pooling = false }.ConnectionString);
        await master.OpenAsync(cancellationToken);
        await using var command = new SqlCommand(sql, master) { CommandTimeout = 120 };
        command.Parameters.Add(new SqlParameter("@name", System.Data.SqlDbType.NVarChar, 128) { Value = database });
        await command.ExecuteNonQueryAsync(cancellationToken);
    }
}

/// <summary>A SQL Server that is down: a loopback port nothing listens on.</summary>
public static class SqlServerDown
{
    public static string ConnectionString()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return $"Server=127.0.0.1,{port};Database=orders;User Id=sa;Password=unused;TrustServerCertificate=true;Connect Timeout=2";
    }
}

public sealed class SqlServerRelationalStore : SqlServerStoreFixture
{
    public override string StoreName => "SQL Server relational";
}

public sealed class SqlServerRelationalConformance(SqlServerRelationalStore store) : ConformanceSuite<SqlServerRelationalStore>(store);

public sealed class SqlServerRelationalSwitchMatrix(SqlServerRelationalStore store) : SwitchMatrixSuite<SqlServerRelationalStore>(store);
