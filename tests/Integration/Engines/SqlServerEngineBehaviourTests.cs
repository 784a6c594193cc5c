using Dapper;
using Microsoft.Data.SqlClient;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Data.Orders;
using OrderService.Data.SqlServer;
using OrderService.Integration.Tests.Conformance.Stores;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Engines;

/// <summary>
/// Where the two TDS engines the store runs on really differ, stated, never skipped: each test asks which
/// engine ORDERS_TEST_SQLSERVER names and asserts THAT engine's documented behaviour; the test name says both.
/// SQL Server locks (a NOLOCK reader sees uncommitted rows, a READ COMMITTED reader waits for a writer,
/// SERIALIZABLE blocks and resolves a conflict as a deadlock); Babelfish for PostgreSQL is multi-version
/// (readers never wait and never see uncommitted rows, SERIALIZABLE fails the loser at once) and reports
/// PostgreSQL's errors that have no SQL Server twin as 33557097. Either way the store retries what clears
/// on retry (<see cref="SqlServerTransientFaults"/>).
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.SqlServer)]
public sealed class SqlServerEngineBehaviourTests : IClassFixture<SqlServerRelationalStore>, IAsyncLifetime
{
    private readonly SqlServerRelationalStore _store;
    private string _database = null!;
    private SqlServerEngine _engine;

    public SqlServerEngineBehaviourTests(SqlServerRelationalStore store)
    {
        _store = store;
        if (store.UnavailableReason is { } reason)
        {
            Assert.Skip(reason);
        }
    }

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    public async ValueTask InitializeAsync()
    {
        _engine = await _store.EngineAsync();
        _database = (await _store.DefaultAsync()).ConnectionString;
        TestContext.Current.SendDiagnosticMessage($"TDS engine: {_engine}");
    }

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;

    [Fact]
    public async Task A_NOLOCK_read_during_an_uncommitted_payment_sees_it_on_SQL_Server_and_never_on_Babelfish()
    {
        await using var factory = await _store.CreateFactoryAsync("nolock", [new("Store:ReadIsolation", nameof(ReadIsolation.ReadUncommitted))]);

        var during = await ReadDuringAnUncommittedPaymentAsync(factory, readIsNotBlocked: true);

        during.Status.ShouldBe(_engine == SqlServerEngine.SqlServer
            ? OrderStatus.Paid      // SQL Server: NOLOCK reads the writer's uncommitted row (a dirty read)
            : OrderStatus.Created); // Babelfish: the hint is accepted and ignored; PostgreSQL has no dirty reads
    }

    [Fact]
    public async Task A_READ_COMMITTED_read_waits_for_the_writer_on_SQL_Server_and_reads_the_last_commit_at_once_on_Babelfish()
    {
        await using var factory = await _store.CreateFactoryAsync("readcommitted", []);

        // SQL Server (without READ_COMMITTED_SNAPSHOT, its default): the reader waits for the writer's lock.
        // Babelfish: the reader reads the last committed row at once.
        var during = await ReadDuringAnUncommittedPaymentAsync(factory,
            readIsNotBlocked: _engine == SqlServerEngine.Babelfish);

        during.Status.ShouldBe(OrderStatus.Created);
    }

    [Fact]
    public async Task Concurrent_SERIALIZABLE_writers_lose_with_a_transient_error_deadlock_1205_on_SQL_Server_serialization_failure_33557097_on_Babelfish()
    {
        var table = await ProbeTableAsync();
        await using var a = await OpenAsync();
        await using var b = await OpenAsync();
        await using var ta = (SqlTransaction)await a.BeginTransactionAsync(System.Data.IsolationLevel.Serializable, Ct);
        await using var tb = (SqlTransaction)await b.BeginTransactionAsync(System.Data.IsolationLevel.Serializable, Ct);
        var read = $"SELECT v FROM {table} WHERE id = 1;";
        await a.ExecuteScalarAsync<int>(read, transaction: ta);
        await b.ExecuteScalarAsync<int>(read, transaction: tb);

        // Both read, both write the row they read: one of the two must lose.
        var update = $"UPDATE {table} SET v = v + 1 WHERE id = 1;";
        var writes = new Dictionary<Task, SqlTransaction>
        {
            [a.ExecuteAsync(new CommandDefinition(update, transaction: ta, commandTimeout: 60, cancellationToken: Ct))] = ta,
            [b.ExecuteAsync(new CommandDefinition(update, transaction: tb, commandTimeout: 60, cancellationToken: Ct))] = tb,
        };
        SqlException? lost = null;
        while (writes.Count > 0)
        {
            var done = await Task.WhenAny(writes.Keys);
            var transaction = writes[done];
            writes.Remove(done);
            if (done.IsFaulted)
            {
                lost.ShouldBeNull("only one of the two writers may lose");
                lost = done.Exception!.InnerException.ShouldBeOfType<SqlException>();
            }
            else
            {
                await transaction.CommitAsync(Ct); // on Babelfish the loser fails only when the winner commits
            }
        }

        lost.ShouldNotBeNull("two SERIALIZABLE writers of one row cannot both commit");
        TestContext.Current.SendDiagnosticMessage($"{_engine}: {lost.Number} {lost.Message}");
        if (_engine == SqlServerEngine.SqlServer)
        {
            lost.Number.ShouldBe(1205); // the second writer blocks on the first one's range lock: a deadlock
        }
        else
        {
            lost.Number.ShouldBe(SqlServerTransientFaults.BabelfishUnmappedError);
            lost.Message.ShouldStartWith("could not serialize access");
        }

        SqlServerTransientFaults.Instance.Classify(lost).ShouldNotBe(StoreFault.Permanent, "the store must retry a lost serializable writer");
    }

    [Fact]
    public async Task A_lock_timeout_is_transient_1222_on_SQL_Server_33557097_on_Babelfish()
    {
        var table = await ProbeTableAsync();
        await using var holder = await OpenAsync();
        await using var holding = (SqlTransaction)await holder.BeginTransactionAsync(Ct);
        await holder.ExecuteAsync($"UPDATE {table} SET v = v + 1 WHERE id = 1;", transaction: holding);

        await using var waiter = await OpenAsync();
        var fault = await Should.ThrowAsync<SqlException>(() => waiter.ExecuteAsync(
            new CommandDefinition($"SET LOCK_TIMEOUT 200; UPDATE {table} SET v = v + 1 WHERE id = 1;", commandTimeout: 60, cancellationToken: Ct)));
        await holding.RollbackAsync(Ct);

        TestContext.Current.SendDiagnosticMessage($"{_engine}: {fault.Number} {fault.Message}");
        if (_engine == SqlServerEngine.SqlServer)
        {
            fault.Number.ShouldBe(1222);
        }
        else
        {
            fault.Number.ShouldBe(SqlServerTransientFaults.BabelfishUnmappedError);
            fault.Message.ShouldStartWith("canceling statement due to lock timeout");
        }

        SqlServerTransientFaults.Instance.Classify(fault).ShouldNotBe(StoreFault.Permanent, "a lock time-out clears on retry");
    }

    [Fact]
    public async Task A_statement_stopped_at_its_time_out_is_interrupted_minus_2_from_the_client_on_SQL_Server_57014_from_the_server_on_Babelfish()
    {
        // Long enough on either engine to outlast the time-out by far: a three-way cross join of the catalog.
        const string slow = "SELECT COUNT_BIG(*) FROM sys.all_objects a CROSS JOIN sys.all_objects b CROSS JOIN sys.all_objects c;";
        await using var connection = await OpenAsync();
        if (_engine == SqlServerEngine.Babelfish)
        {
            // What a DBA sets on the service's login (ALTER ROLE ... SET statement_timeout), here for this session only.
            await connection.ExecuteAsync("SELECT set_config('statement_timeout', '300', false);");
        }

        var fault = await Should.ThrowAsync<SqlException>(() => connection.ExecuteScalarAsync<long>(
            new CommandDefinition(slow, commandTimeout: _engine == SqlServerEngine.SqlServer ? 1 : 60, cancellationToken: Ct)));

        TestContext.Current.SendDiagnosticMessage($"{_engine}: {fault.Number} {fault.Message}");
        if (_engine == SqlServerEngine.SqlServer)
        {
            fault.Number.ShouldBe(-2); // SqlClient's own time-out: SQL Server stopped the statement at the client's attention
        }
        else
        {
            fault.Number.ShouldBe(SqlServerTransientFaults.BabelfishUnmappedError);
            fault.Message.ShouldStartWith("canceling statement due to statement timeout");

            // The server stopped the statement itself, so the session is free at once (a client-side cancel is read only
            // between requests: the statement would still be running).
            (await connection.ExecuteScalarAsync<int>(new CommandDefinition("SELECT 1;", commandTimeout: 10, cancellationToken: Ct))).ShouldBe(1);
        }

        SqlServerTransientFaults.Instance.Classify(fault).ShouldBe(StoreFault.Interrupted, "a statement stopped at its time-out may have met a commit in flight");
    }

    [Fact]
    public async Task A_unique_clash_names_the_key_2627_or_2601_on_SQL_Server_always_2627_in_PostgreSQLs_words_on_Babelfish()
    {
        var suffix = Guid.NewGuid().ToString("N")[..12];
        var table = $"dbo.probe_unique_{suffix}";
        await using var connection = await OpenAsync();
        await connection.ExecuteAsync($"""
            CREATE TABLE {table} (id int NOT NULL CONSTRAINT pk_probe_{suffix} PRIMARY KEY, k int NOT NULL);
            CREATE UNIQUE INDEX ux_probe_{suffix} ON {table} (k);
            INSERT INTO {table} (id, k) VALUES (1, 1);
            """);

        var onKey = await Should.ThrowAsync<SqlException>(() => connection.ExecuteAsync($"INSERT INTO {table} (id, k) VALUES (1, 2);"));
        var onIndex = await Should.ThrowAsync<SqlException>(() => connection.ExecuteAsync($"INSERT INTO {table} (id, k) VALUES (2, 1);"));
        TestContext.Current.SendDiagnosticMessage($"{_engine}: key {onKey.Number} {onKey.Message} | index {onIndex.Number} {onIndex.Message}");

        // Either way the number says "duplicate key" and the message names the key, which is all the store reads
        // (SqlServerDialect.IsIdempotencyKeyTaken, SqlServerTransientFaults' raced keys).
        onKey.Message.ShouldContain($"pk_probe_{suffix}");
        onIndex.Message.ShouldContain($"ux_probe_{suffix}");
        onKey.Number.ShouldBe(2627);
        if (_engine == SqlServerEngine.SqlServer)
        {
            onKey.Message.ShouldStartWith("Violation of PRIMARY KEY constraint");
            onIndex.Number.ShouldBe(2601);
        }
        else
        {
            onKey.Message.ShouldStartWith("duplicate key value violates unique constraint"); // PostgreSQL's 23505, word for word
            // One number for both, and the index's name comes back with the table's name and a hash appended
            // (Babelfish makes index names unique per schema): the store matches key names by Contains, not equality.
            onIndex.Number.ShouldBe(2627);
        }
    }

    /// <summary>
    /// Holds a pay's write to a new order uncommitted on a connection of the test's own (as the shoot-out's
    /// dirty-read probe does) and reads the order through the port meanwhile; then rolls back.
    /// <paramref name="readIsNotBlocked"/>: the read must finish while the write is held; otherwise it must still be
    /// waiting after a while, and finish after the rollback.
    /// </summary>
    private static async Task<Order> ReadDuringAnUncommittedPaymentAsync(
        Conformance.Infrastructure.OrderServiceFactory factory, bool readIsNotBlocked)
    {
        var port = Port(factory);
        var order = Transitions.Create(Guid.CreateVersion7(), Conformance.Infrastructure.Ids.NewCustomer(),
            [new OrderLine("SKU-1", 1, 1m)], Timestamps.Now(TimeProvider.System));
        (await port.CreateAsync(new NewOrder(order, null, "h"), Ct)).Outcome.ShouldBe(CreateOutcome.Created);
        await using var writer = new SqlConnection(factory.Services.GetRequiredService<IConfiguration>()
            .GetConnectionString(StoreRegistration.ConnectionStringName));
        await writer.OpenAsync(Ct);
        Task<Order?>? read = null;

        (await HeldPay.HoldAsync(writer, order.Id, async () =>
        {
            read = Task.Run(() => port.GetAsync(order.Id, Ct), Ct);
            if (readIsNotBlocked)
            {
                await read.WaitAsync(TimeSpan.FromSeconds(30), Ct);
            }
            else
            {
                await Task.Delay(TimeSpan.FromMilliseconds(700), Ct);
                read.IsCompleted.ShouldBeFalse("the reader must wait for the writer's lock");
            }
        }, Ct)).ShouldBeTrue();
        return (await read!).ShouldNotBeNull();
    }

    private static IOrderStore Port(Conformance.Infrastructure.OrderServiceFactory factory)
    {
        _ = factory.CreateClient(); // starts the host
        return factory.Services.GetRequiredService<IOrderStore>();
    }

    /// <summary>A one-row table of its own (id 1, v 0), so the raw lock tests touch no order.</summary>
    private async Task<string> ProbeTableAsync()
    {
        var table = $"dbo.probe_{Guid.NewGuid():N}";
        await using var connection = await OpenAsync();
        await connection.ExecuteAsync($"CREATE TABLE {table} (id int NOT NULL PRIMARY KEY, v int NOT NULL); INSERT INTO {table} (id, v) VALUES (1, 0);");
        return table;
    }

    private async Task<SqlConnection> OpenAsync()
    {
        var connection = new SqlConnection(new SqlConnectionStringBuilder(_database) { Pooling = false }.ConnectionString);
        await connection.OpenAsync(Ct);
        return connection;
    }
}
