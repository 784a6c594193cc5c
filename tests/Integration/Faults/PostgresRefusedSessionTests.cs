using Npgsql;
using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Data.PostgreSql;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Faults;

/// <summary>
/// A throwaway PostgreSQL cluster that refuses sessions: password authentication for every role but the
/// superuser, and only six connection slots (one reserved for the superuser). For the tests that the store's
/// refusals are unavailability (503 with Retry-After), never a 500.
/// </summary>
public sealed class RefusingPostgres : IAsyncLifetime
{
    public const string Password = "the-right-password";
    private readonly string _hbaFile = Path.Combine(Path.GetTempPath(), $"orders-refusing-hba-{Guid.NewGuid():N}.conf");

    public ThrowawayPostgres Server { get; private set; } = null!;

    /// <summary>A database that role <c>orders_login</c> (password <see cref="Password"/>) may use, and role <c>orders_nologin</c> may not log in to.</summary>
    public string Database { get; private set; } = null!;

    public async ValueTask InitializeAsync()
    {
        // The superuser keeps trust (the test's own admin connections); everybody else must give a password.
        await File.WriteAllLinesAsync(_hbaFile,
        [
            "host all postgres 127.0.0.1/32 trust",
            "host all all 127.0.0.1/32 scram-sha-256",
        ]);
        Server = await ThrowawayPostgres.StartLocalAsync(new Dictionary<string, string>
        {
            ["hba_file"] = $"'{_hbaFile}'",
            ["max_connections"] = "6",
            ["superuser_reserved_connections"] = "1",
        });
        Database = await Server.CreateDatabaseAsync("refusing");
        await using var admin = new NpgsqlConnection(Database);
        await admin.OpenAsync();
        await using var command = new NpgsqlCommand(
            $"CREATE ROLE orders_login LOGIN PASSWORD '{Password}'; CREATE ROLE orders_nologin NOLOGIN PASSWORD '{Password}'", admin);
        await command.ExecuteNonQueryAsync();
    }

    /// <summary>
    /// Opens unpooled sessions (as the superuser, who may take the reserved slot too) until the server refuses one.
    /// The caller disposes <c>Held</c>; <c>Refusal</c> is null if ten sessions were all accepted.
    /// </summary>
    public async Task<(List<NpgsqlConnection> Held, PostgresException? Refusal)> TakeEverySlotAsync(CancellationToken cancellationToken)
    {
        var held = new List<NpgsqlConnection>();
        for (var slot = 0; slot < 10; slot++)
        {
            var connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(Database) { Pooling = false }.ConnectionString);
            try
            {
                await connection.OpenAsync(cancellationToken);
                held.Add(connection);
            }
            catch (PostgresException refused)
            {
                await connection.DisposeAsync();
                return (held, refused);
            }
        }

        return (held, null);
    }

    public async ValueTask DisposeAsync()
    {
        if (Server is not null)
        {
            await Server.DisposeAsync();
        }

        File.Delete(_hbaFile);
    }
}

/// <summary>
/// PostgreSQL refusing the service's session, each case as the server really says it: a wrong password (28P01),
/// a role that may not log in (28000), and no connection slot left (53300, "sorry, too many clients already").
/// Each is <see cref="StoreFault.Unreachable"/> (nothing was sent) and the API answers 503 with Retry-After.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class PostgresRefusedSessionTests(RefusingPostgres postgres) : IClassFixture<RefusingPostgres>
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(30);

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task A_wrong_password_is_28P01_unavailability_and_503()
    {
        var refused = As("orders_login", "not-the-password");
        (await RefusalAsync(refused)).SqlState.ShouldBe("28P01");
        await StoreRefusal.AnswersUnavailableAsync(Settings(refused), Bound);
    }

    [Fact]
    public async Task A_role_that_may_not_log_in_is_28000_unavailability_and_503()
    {
        var refused = As("orders_nologin", RefusingPostgres.Password);
        (await RefusalAsync(refused)).SqlState.ShouldBe("28000");
        await StoreRefusal.AnswersUnavailableAsync(Settings(refused), Bound);
    }

    [Fact]
    public async Task Too_many_clients_is_53300_unavailability_and_503()
    {
        // Take every slot the server has, then ask as the service.
        var (held, full) = await postgres.TakeEverySlotAsync(Ct);
        try
        {
            full.ShouldNotBeNull("the server must refuse a session once its slots are taken");
            full.SqlState.ShouldBe("53300");
            full.MessageText.ShouldBe("sorry, too many clients already");
            new PostgresTransientFaults().Classify(full).ShouldBe(StoreFault.Unreachable);

            await StoreRefusal.AnswersUnavailableAsync(Settings(postgres.Database), Bound);
        }
        finally
        {
            foreach (var connection in held)
            {
                await connection.DisposeAsync();
            }
        }
    }

    private string As(string role, string password) =>
        new NpgsqlConnectionStringBuilder(postgres.Database) { Username = role, Password = password }.ConnectionString;

    private static async Task<PostgresException> RefusalAsync(string connectionString)
    {
        var refused = await Should.ThrowAsync<PostgresException>(async () =>
        {
            await using var connection = new NpgsqlConnection(new NpgsqlConnectionStringBuilder(connectionString) { Pooling = false }.ConnectionString);
            await connection.OpenAsync(Ct);
        });
        new PostgresTransientFaults().Classify(refused).ShouldBe(StoreFault.Unreachable);
        return refused;
    }

    private static Dictionary<string, string?> Settings(string connectionString) => new()
    {
        ["Store:Provider"] = nameof(StoreProvider.PostgreSql),
        [$"ConnectionStrings:{StoreRegistration.ConnectionStringName}"] = connectionString,
    };
}
