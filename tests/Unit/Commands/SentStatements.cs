using System.Collections.Concurrent;
using System.Data;
using OrderService.Data;
using OrderService.Data.Orders;
using OrderService.Data.Relational;
using OrderService.Data.SqlServer;
using Xunit;

namespace OrderService.Unit.Tests.Commands;

/// <summary>
/// Runs every flow of the SQL Server store (create with and without a key, get, every transition with and
/// without If-Match, with and without an Idempotency-Key, and with a confirmation, batch reads of 1, 2,100
/// and 10,000 ids, customer list pages with and without a status and a cursor, readiness) for one switch combination, on <see cref="RecordingConnection"/>s,
/// and returns every command the store sent. The answers are chosen so that each flow takes its longest
/// path (a replayed create reads the order back; a per-call transition whose write lost a race re-reads).
/// </summary>
internal static class SentStatements
{
    public static readonly int[] BatchSizes = [1, 2_100, 10_000];

    /// <summary>Every combination of UnitOfWork x WriteIsolation x ReadIsolation x BatchFilter, as theory data.</summary>
    public static TheoryData<UnitOfWork, WriteIsolation, ReadIsolation, BatchFilter> Combinations()
    {
        var data = new TheoryData<UnitOfWork, WriteIsolation, ReadIsolation, BatchFilter>();
        foreach (var unitOfWork in Enum.GetValues<UnitOfWork>())
        foreach (var write in Enum.GetValues<WriteIsolation>())
        foreach (var read in Enum.GetValues<ReadIsolation>())
        foreach (var batch in Enum.GetValues<BatchFilter>())
        {
            data.Add(unitOfWork, write, read, batch);
        }

        return data;
    }

    public static StoreOptions Options(UnitOfWork unitOfWork, WriteIsolation write, ReadIsolation read, BatchFilter batch) => new()
    {
        Provider = StoreProvider.SqlServer,
        UnitOfWork = unitOfWork,
        WriteIsolation = write,
        ReadIsolation = read,
        BatchFilter = batch,
    };

    /// <summary>The commands of one combination, recorded once per test run (several tests read them).</summary>
    public static Task<IReadOnlyList<RecordedCommand>> RecordAsync(StoreOptions options) =>
        Recorded.GetOrAdd(
            $"{options.UnitOfWork}/{options.WriteIsolation}/{options.ReadIsolation}/{options.BatchFilter}",
            _ => new Lazy<Task<IReadOnlyList<RecordedCommand>>>(() => RecordNowAsync(options))).Value;

    private static readonly ConcurrentDictionary<string, Lazy<Task<IReadOnlyList<RecordedCommand>>>> Recorded = new(StringComparer.Ordinal);

    private static async Task<IReadOnlyList<RecordedCommand>> RecordNowAsync(StoreOptions options)
    {
        var dialect = new SqlServerDialect(options.ReadIsolation);
        var log = new List<RecordedCommand>();
        var answers = new Answers(dialect);
        var connections = new SqlServerConnections(() => new RecordingConnection(answers.For, log), options.ReadIsolation);
        var store = new RelationalOrderStore(dialect, connections, options);
        var token = CancellationToken.None;
        var order = Transitions.Create(Guid.CreateVersion7(), "customer-1", [new OrderLine("SKU-1", 2, 9.99m), new OrderLine("SKU-2", 1, 0.5m)], DateTimeOffset.UtcNow);

        await store.CreateAsync(new NewOrder(order, null, "hash"), token);
        await store.CreateAsync(new NewOrder(order, "key-1", "hash"), token);
        await store.GetAsync(order.Id, token);
        foreach (var action in Enum.GetValues<OrderAction>())
        {
            answers.Status = Transitions.AllowedFrom(action)[0];
            foreach (var expected in (int?[])[null, 1])
            {
                await store.TransitionAsync(new TransitionCommand(order.Id, action, expected, DateTimeOffset.UtcNow, new OrderEventData(Reason: "r")), token);
            }
        }

        // Keyed: the write matches nothing and the key is found, stored by this same request: the store looks
        // the key up after the write and answers a replay.
        answers.OrderId = order.Id;
        foreach (var action in Enum.GetValues<OrderAction>())
        {
            answers.Status = Transitions.AllowedFrom(action)[0];
            foreach (var expected in (int?[])[null, 1])
            {
                await store.TransitionAsync(
                    new TransitionCommand(order.Id, action, expected, DateTimeOffset.UtcNow, new OrderEventData(Reason: "r")) { IdempotencyKey = "key-2", RequestHash = "hash" }, token);
            }
        }

        foreach (var size in BatchSizes)
        {
            await foreach (var _ in store.GetManyAsync(Enumerable.Range(0, size).Select(_ => Guid.CreateVersion7()).ToArray(), token))
            {
            }
        }

        foreach (var status in (OrderStatus?[])[null, OrderStatus.Paid])
        {
            foreach (var after in (OrderPosition?[])[null, new OrderPosition(DateTimeOffset.UtcNow, Guid.CreateVersion7())])
            {
                var page = await store.ListByCustomerAsync(new CustomerOrdersQuery("customer-1", status, 100, after), token);
                await foreach (var _ in page.Orders.WithCancellation(token))
                {
                }
            }
        }

        await store.CheckReadyAsync(token);
        return log;
    }

    /// <summary>
    /// What the "server" answers: an order in <see cref="Status"/> at version 1; writes that match nothing,
    /// except an unkeyed one-command transition; an idempotency key stored by the same request for
    /// <see cref="OrderId"/>; two positions for a listing page (so its range query is sent too).
    /// </summary>
    private sealed class Answers(SqlServerDialect dialect)
    {
        public OrderStatus Status { get; set; } = OrderStatus.Created;

        public Guid OrderId { get; set; }

        public DataTable[] For(string sql)
        {
            if (sql == dialect.SelectOrderById)
            {
                return [OrderRow()];
            }

            if (sql == dialect.SelectIdempotencyKey)
            {
                var key = Table(("request_hash", typeof(string)), ("order_id", typeof(Guid)), ("version", typeof(int)));
                key.Rows.Add("hash", OrderId, 1);
                return [key];
            }

            if (IsPagePositions(sql))
            {
                var positions = Table(("created_at", typeof(DateTimeOffset)), ("id", typeof(Guid)));
                positions.Rows.Add(DateTimeOffset.UtcNow, Guid.CreateVersion7());
                positions.Rows.Add(DateTimeOffset.UtcNow.AddSeconds(-1), Guid.CreateVersion7());
                return [positions];
            }

            if (IsTransition(sql, withKey: true))
            {
                // Not written: the store reads the order and the key, and replays.
                return [OrderTable()];
            }

            if (sql == dialect.CreateOrder(withIdempotencyKey: true))
            {
                // Not inserted: the key is known with the same request, so the store replays (reads the order).
                return [Table(("id", typeof(Guid)))];
            }

            if (sql == dialect.CreateOrder(withIdempotencyKey: false) || IsTransitionWrite(sql))
            {
                return [Table(("id", typeof(Guid)))];
            }

            if (IsTransition(sql, withKey: false))
            {
                return [OrderRow()];
            }

            return [OrderTable()];
        }

        private bool IsTransitionWrite(string sql) =>
            Enum.GetValues<OrderAction>().Any(a => (bool[])[false, true] is var both && both.Any(v => both.Any(k => sql == dialect.TransitionWrite(a, v, k))));

        private bool IsTransition(string sql, bool withKey) =>
            Enum.GetValues<OrderAction>().Any(a => sql == dialect.Transition(a, true, withKey) || sql == dialect.Transition(a, false, withKey));

        private bool IsPagePositions(string sql) =>
            (bool[])[false, true] is var both && both.Any(status => both.Any(after => sql == dialect.SelectCustomerPagePositions(status, after)));

        private DataTable OrderRow()
        {
            var table = OrderTable();
            var at = DateTimeOffset.UtcNow;
            table.Rows.Add(Guid.CreateVersion7(), "customer-1", Status.ToString(), 20.48m, 1, at, at, "[]", "[]");
            return table;
        }

        private static DataTable OrderTable() => Table(
            ("id", typeof(Guid)), ("customer_id", typeof(string)), ("status", typeof(string)), ("total", typeof(decimal)),
            ("version", typeof(int)), ("created_at", typeof(DateTimeOffset)), ("updated_at", typeof(DateTimeOffset)),
            ("lines", typeof(string)), ("events", typeof(string)));

        private static DataTable Table(params (string Name, Type Type)[] columns)
        {
            var table = new DataTable();
            foreach (var (name, type) in columns)
            {
                table.Columns.Add(name, type);
            }

            return table;
        }
    }
}
