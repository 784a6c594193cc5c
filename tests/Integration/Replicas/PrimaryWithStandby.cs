using Npgsql;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Replicas;

/// <summary>
/// A throwaway primary and its streaming standby (pg_basebackup -R), both local clusters on loopback ports of their
/// own, for the tests of Store:PostgreSql:ReadConnectionString. Every service host made here writes to the primary;
/// <see cref="Create"/> sends its reads to the standby when asked.
/// </summary>
public sealed class PrimaryWithStandby : IAsyncLifetime
{
    private readonly List<OrderServiceFactory> _hosts = [];
    private string _database = "";

    public ThrowawayPostgres Primary { get; private set; } = null!;

    public ThrowawayStandby Standby { get; private set; } = null!;

    public string PrimaryConnectionString { get; private set; } = "";

    public string StandbyConnectionString => Standby.ConnectionString(_database);

    public async ValueTask InitializeAsync()
    {
        Primary = await ThrowawayPostgres.StartLocalAsync();
        Standby = await ThrowawayStandby.StartAsync(Primary);
        PrimaryConnectionString = await Primary.CreateDatabaseAsync("replicas");
        _database = new NpgsqlConnectionStringBuilder(PrimaryConnectionString).Database!;
        await Standby.CatchUpAsync(Primary);
    }

    /// <summary>
    /// A service host on the primary; with <paramref name="readsFromStandby"/> its reads go to the standby, or to
    /// <paramref name="readConnectionString"/> when that is given; it writes to <paramref name="primaryConnectionString"/>
    /// when that is given (a database of its own, <see cref="CreateDatabaseAsync"/>).
    /// </summary>
    public OrderServiceFactory Create(string layout, bool readsFromStandby, string? readConnectionString = null, string? primaryConnectionString = null)
    {
        var settings = new Dictionary<string, string?>(StoreFixture.AnsweringBounds, StringComparer.OrdinalIgnoreCase)
        {
            ["Store:Provider"] = "PostgreSql",
            ["Store:Layout"] = layout,
            ["ConnectionStrings:Orders"] = primaryConnectionString ?? PrimaryConnectionString,
            ["Store:PostgreSql:ReadConnectionString"] = readConnectionString ?? (readsFromStandby ? StandbyConnectionString : null),
        };
        var host = new OrderServiceFactory(settings);
        _hosts.Add(host);
        return host;
    }

    /// <summary>A new, empty database on the primary, replayed on the standby: its connection string on each.</summary>
    public async Task<(string Primary, string Standby)> CreateDatabaseAsync(string prefix)
    {
        var primary = await Primary.CreateDatabaseAsync(prefix, TestContext.Current.CancellationToken);
        await CatchUpAsync();
        return (primary, Standby.ConnectionString(new NpgsqlConnectionStringBuilder(primary).Database!));
    }

    /// <summary>Waits until the standby shows everything committed on the primary so far.</summary>
    public Task CatchUpAsync() => Standby.CatchUpAsync(Primary, TestContext.Current.CancellationToken);

    public async ValueTask DisposeAsync()
    {
        foreach (var host in _hosts)
        {
            await host.DisposeAsync();
        }

        NpgsqlConnection.ClearAllPools();
        await Standby.DisposeAsync();
        await Primary.DisposeAsync();
    }
}
