using Microsoft.Data.SqlClient;
using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Data.SqlServer;
using OrderService.Integration.Tests.Conformance.Stores;
using OrderService.Integration.Tests.Servers;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Faults;

/// <summary>
/// A TDS engine that refuses the service's session is unavailable, not broken: the engine's own error is
/// classified <see cref="StoreFault.Unreachable"/> (nothing was sent) and the API answers 503 with Retry-After.
/// SQL Server refuses an unknown login (or a wrong password) with 18456; Babelfish (trust authentication from
/// loopback, so only an unknown login is refused) with 33557097 and PostgreSQL's "role ... does not exist".
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.SqlServer)]
public sealed class SqlServerRefusedSessionTests
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(60);

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task A_refused_login_is_unavailability_18456_on_SQL_Server_an_unknown_role_on_Babelfish_and_the_API_answers_503()
    {
        // The server's address only (no fixture, no database of its own: a refused login reaches none).
        var selection = await TestServers.SqlServerAsync();
        if (selection.ConnectionString is not { } server)
        {
            Assert.Skip($"{selection.SkipReason} (docs/getting-started.md: the SQL Server tests)");
            return;
        }

        var engine = await SqlServerEngines.DetectAsync(server);
        var refused = new SqlConnectionStringBuilder(server)
        {
            InitialCatalog = "orders_refused",
            UserID = $"no_such_login_{Guid.NewGuid():N}"[..24],
            Password = "not-the-password-1",
        }.ConnectionString;

        var error = await Should.ThrowAsync<SqlException>(async () =>
        {
            await using var connection = new SqlConnection(new SqlConnectionStringBuilder(refused) { Pooling = false }.ConnectionString);
            await connection.OpenAsync(Ct);
        });
        TestContext.Current.SendDiagnosticMessage($"{engine}: error {error.Number}: {error.Message}");

        if (engine == SqlServerEngine.SqlServer)
        {
            error.Number.ShouldBe(18456);
        }
        else
        {
            error.Message.ShouldContain("does not exist");
        }

        SqlServerTransientFaults.Instance.Classify(error).ShouldBe(StoreFault.Unreachable);
        await StoreRefusal.AnswersUnavailableAsync(Settings(refused), Bound);
    }

    private static Dictionary<string, string?> Settings(string connectionString)
    {
        var settings = new Dictionary<string, string?>
        {
            ["Store:Provider"] = nameof(StoreProvider.SqlServer),
            [$"ConnectionStrings:{StoreRegistration.ConnectionStringName}"] = connectionString,
        };
        foreach (var (key, value) in SqlServerStoreFixture.BabelfishSettings)
        {
            settings[key] = value;
        }

        return settings;
    }
}
