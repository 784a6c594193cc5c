namespace OrderService.Load.Shootout;

/// <summary>
/// SHOOTOUT.md's matrix, per store. Names follow the seed (baseline, v1, v3, v4, v5) plus the new
/// durability-traded column (majority on MongoDB); SQLite also gets "straightforward" (no group commit, a connection per
/// call) so the report shows what the group-commit writer buys at synchronous=FULL, and PostgreSQL's relational layout
/// one (variant 1 without group commit: what Store:PostgreSql:GroupCommit buys at synchronous_commit=on).
/// </summary>
public static class VariantCatalog
{
    private const string Relational = "Relational";
    private const string Document = "Document";

    public static IReadOnlyList<Variant> For(StoreKind store) => store switch
    {
        StoreKind.Sqlite => Sqlite(),
        StoreKind.PostgreSql => PostgreSql(),
        StoreKind.SqlServer => SqlServer(),
        StoreKind.MongoDb => MongoDb(),
        StoreKind.Citus => Citus(),
        _ => [],
    };

    /// <summary>Rows of a Citus run that carry the same name as a PostgreSQL row compare with it (Ratios).</summary>
    public const string CitusDistribution = "Store:PostgreSql:Distribution";

    /// <summary>
    /// PostgreSQL's durable rows of both layouts on Citus: the service's default settings plus the distribution. The
    /// traded rows are left out: synchronous_commit set in the service's session applies on the coordinator only, and
    /// the delegated write commits on the worker with the worker's setting, so such a row would not be what it says.
    /// Group commit is off on Citus whatever the row says (the store turns it off there), so each row is "each call
    /// alone", one delegated function on the order's worker.
    /// </summary>
    private static Variant[] Citus() =>
    [
        .. PostgreSql()
            .Where(v => v.Key is "postgres/relational/v1-shared-uow" or "postgres/document/journaled-grouped")
            .Select(v => v with
            {
                Store = StoreKind.Citus,
                Description = "the PostgreSQL row on Citus: every workflow statement one delegated call on the order's worker, group commit off (the store's choice on Citus)",
                Durability = "synchronous_commit=on on the workers (the engine's CITUS_DURABLE)",
                Settings = new Dictionary<string, string>(v.Settings, StringComparer.OrdinalIgnoreCase) { [CitusDistribution] = "Citus" },
            }),
    ];

    private static Variant[] Sqlite() =>
    [
        new(StoreKind.Sqlite, Relational, "straightforward", "reference",
            "a connection and a commit per repository call, no group commit", true, "synchronous=FULL, a WAL sync per commit",
            Settings(("Store:UnitOfWork", "PerCall"), ("Store:Sqlite:GroupCommit", "false"), ("Store:Sqlite:Synchronous", "Full"))),
        new(StoreKind.Sqlite, Relational, "baseline", "baseline",
            "new connection per repository call, serializable writes", true, "synchronous=FULL, group commit",
            Settings(("Store:UnitOfWork", "PerCall"), ("Store:WriteIsolation", "Serializable"), ("Store:Sqlite:Synchronous", "Full"))),
        new(StoreKind.Sqlite, Relational, "v1-shared-uow", "variant 1",
            "one connection + transaction per request", true, "synchronous=FULL, group commit",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:Sqlite:Synchronous", "Full"))),
        new(StoreKind.Sqlite, Relational, "v3-nolock", "variant 3",
            "variant 1 + read_uncommitted reads (shared cache)", true, "synchronous=FULL, group commit",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:ReadIsolation", "ReadUncommitted"), ("Store:Sqlite:Synchronous", "Full"))),
        new(StoreKind.Sqlite, Relational, "serializable", "new",
            "variant 1 with Store:WriteIsolation=Serializable (SQLite writes are serialized anyway)", true, "synchronous=FULL, group commit",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:WriteIsolation", "Serializable"), ("Store:Sqlite:Synchronous", "Full"))),
        new(StoreKind.Sqlite, Relational, "repeatable-read", "new",
            "variant 1 with Store:WriteIsolation=RepeatableRead (SQLite writes are serialized anyway)", true, "synchronous=FULL, group commit",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:WriteIsolation", "RepeatableRead"), ("Store:Sqlite:Synchronous", "Full"))),
        new(StoreKind.Sqlite, Relational, "durability-traded", "new",
            "variant 1 with synchronous=NORMAL", false, "synchronous=NORMAL: WAL synced at checkpoints only; power loss can drop the last commits",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:Sqlite:Synchronous", "Normal"))),
        new(StoreKind.Sqlite, Document, "baseline", "baseline",
            "document per order, a connection per call, no sync wait (MongoDB acknowledged)", false, "synchronous=OFF: never waits for the disk",
            Settings(("Store:UnitOfWork", "PerCall"), ("Store:Sqlite:Synchronous", "Off"))),
        new(StoreKind.Sqlite, Document, "v1-shared-uow", "variant 1",
            "document per order, connection reused per request, no sync wait", false, "synchronous=OFF: never waits for the disk",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:Sqlite:Synchronous", "Off"))),
        new(StoreKind.Sqlite, Document, "serializable", "new",
            "variant 1 with Store:WriteIsolation=Serializable (SQLite writes are serialized anyway)", false, "synchronous=OFF: never waits for the disk",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:WriteIsolation", "Serializable"), ("Store:Sqlite:Synchronous", "Off"))),
        new(StoreKind.Sqlite, Document, "repeatable-read", "new",
            "variant 1 with Store:WriteIsolation=RepeatableRead (SQLite writes are serialized anyway)", false, "synchronous=OFF: never waits for the disk",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:WriteIsolation", "RepeatableRead"), ("Store:Sqlite:Synchronous", "Off"))),
        new(StoreKind.Sqlite, Document, "v4-journaled", "variant 4",
            "journaled: every commit waits for its own WAL sync (MongoDB j:true)", true, "synchronous=FULL, no group commit",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:Sqlite:Synchronous", "Full"), ("Store:Sqlite:GroupCommit", "false"))),
        new(StoreKind.Sqlite, Document, "v5-group-commit", "variant 5",
            "journaled with group commit (MongoDB journalCommitInterval 2 ms)", true, "synchronous=FULL, group commit",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:Sqlite:Synchronous", "Full"), ("Store:Sqlite:GroupCommit", "true"))),
    ];

    private static Variant[] PostgreSql() =>
    [
        // SERIALIZABLE on PostgreSQL aborts some concurrent transactions with 40001 by design; an application
        // that chooses it retries them, so the baseline allows more retries and its latency shows that cost.
        new(StoreKind.PostgreSql, Relational, "baseline", "baseline",
            "new connection per repository call, serializable writes (40001 retried up to 8 times)", true, "synchronous_commit=on",
            Settings(("Store:UnitOfWork", "PerCall"), ("Store:WriteIsolation", "Serializable"), ("Store:PostgreSql:SynchronousCommit", "On"),
                ("Resilience:MaxConflictRetries", "8"), ("Resilience:TotalTimeoutSeconds", "15"))),
        new(StoreKind.PostgreSql, Relational, "straightforward", "reference",
            "variant 1 with every request committed on its own connection, no group commit", true, "synchronous_commit=on, a WAL flush per commit",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:PostgreSql:GroupCommit", "false"), ("Store:PostgreSql:SynchronousCommit", "On"))),
        new(StoreKind.PostgreSql, Relational, "v1-shared-uow", "variant 1",
            "one connection + transaction per request, group commit", true, "synchronous_commit=on, group commit",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:PostgreSql:SynchronousCommit", "On"))),
        new(StoreKind.PostgreSql, Relational, "v3-nolock", "variant 3",
            "variant 1 + READ UNCOMMITTED reads (PostgreSQL runs them as READ COMMITTED)", true, "synchronous_commit=on",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:ReadIsolation", "ReadUncommitted"), ("Store:PostgreSql:SynchronousCommit", "On"))),
        // The isolation rows: variant 1 at a stricter level, with the resilience defaults (a conflict the
        // server rolled back is rerun whole, see docs/isolation-and-durability.md), so 0 errors is the default's claim.
        new(StoreKind.PostgreSql, Relational, "serializable", "new",
            "variant 1 with SERIALIZABLE writes (40001/40P01 rerun whole)", true, "synchronous_commit=on",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:WriteIsolation", "Serializable"), ("Store:PostgreSql:SynchronousCommit", "On"))),
        new(StoreKind.PostgreSql, Relational, "repeatable-read", "new",
            "variant 1 with REPEATABLE READ writes (40001/40P01 rerun whole)", true, "synchronous_commit=on",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:WriteIsolation", "RepeatableRead"), ("Store:PostgreSql:SynchronousCommit", "On"))),
        new(StoreKind.PostgreSql, Relational, "durability-traded", "new",
            "variant 1 with synchronous_commit=off", false, "synchronous_commit=off: a crash can lose the last ~600 ms of commits; nothing is corrupted",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:PostgreSql:SynchronousCommit", "Off"))),
        new(StoreKind.PostgreSql, Document, "baseline", "baseline",
            "jsonb document per order, a connection per call, no flush wait (MongoDB acknowledged)", false, "synchronous_commit=off",
            Settings(("Store:UnitOfWork", "PerCall"), ("Store:PostgreSql:SynchronousCommit", "Off"))),
        new(StoreKind.PostgreSql, Document, "v1-shared-uow", "variant 1",
            "jsonb document per order, connection reused per request, no flush wait, group commit", false, "synchronous_commit=off",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:PostgreSql:SynchronousCommit", "Off"))),
        new(StoreKind.PostgreSql, Document, "serializable", "new",
            "variant 1 with Store:WriteIsolation=Serializable (single-statement writes; the level applies to explicit transactions)", false, "synchronous_commit=off",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:WriteIsolation", "Serializable"), ("Store:PostgreSql:SynchronousCommit", "Off"))),
        new(StoreKind.PostgreSql, Document, "repeatable-read", "new",
            "variant 1 with Store:WriteIsolation=RepeatableRead (single-statement writes; the level applies to explicit transactions)", false, "synchronous_commit=off",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:WriteIsolation", "RepeatableRead"), ("Store:PostgreSql:SynchronousCommit", "Off"))),
        // v4 and v5 commit every request on its own (the service's group commit off), so that the server-side window
        // (commit_delay) is what tells them apart, as the journal commit interval does on MongoDB; the service's own
        // group commit is the row after them.
        new(StoreKind.PostgreSql, Document, "v4-journaled", "variant 4",
            "journaled: every commit waits for the WAL flush (MongoDB j:true), each request commits alone", true, "synchronous_commit=on, commit_delay=0",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:PostgreSql:SynchronousCommit", "On"), ("Store:PostgreSql:GroupCommit", "false"))),
        new(StoreKind.PostgreSql, Document, "v5-group-commit", "variant 5",
            "journaled with a group-commit window (MongoDB journalCommitInterval 2 ms), each request commits alone", true, "synchronous_commit=on, commit_delay=2000 µs, commit_siblings=5",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:PostgreSql:SynchronousCommit", "On"), ("Store:PostgreSql:GroupCommit", "false"),
                ("Store:PostgreSql:CommitDelayMicroseconds", "2000"), ("Store:PostgreSql:CommitSiblings", "5"))),
        new(StoreKind.PostgreSql, Document, "journaled-grouped", "new",
            "journaled, with the service's group commit: concurrent requests share one transaction and one WAL flush", true, "synchronous_commit=on, group commit",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:PostgreSql:SynchronousCommit", "On"))),
    ];

    private static Variant[] SqlServer() =>
    [
        new(StoreKind.SqlServer, Relational, "baseline", "baseline",
            "new connection per repository call, serializable writes", true, "server default (full durability)",
            Settings(("Store:UnitOfWork", "PerCall"), ("Store:WriteIsolation", "Serializable"))),
        new(StoreKind.SqlServer, Relational, "v1-shared-uow", "variant 1",
            "one connection + transaction per request", true, "server default (full durability)",
            Settings(("Store:UnitOfWork", "PerRequest"))),
        new(StoreKind.SqlServer, Relational, "v3-nolock", "variant 3",
            "variant 1 + NOLOCK reads", true, "server default (full durability)",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:ReadIsolation", "ReadUncommitted"))),

        // The batch filter shapes only GET /orders?ids= (one parameter for all ids, or one per id); the workflow reads
        // one order per step, so this row should match variant 1: a difference here is the machine, not the switch.
        new(StoreKind.SqlServer, Relational, "batch-filter-inlist", "new",
            "variant 1 with Store:BatchFilter=InList (one parameter per id; off the workflow's path)", true, "server default (full durability)",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:BatchFilter", "InList"))),
    ];

    /// <summary>
    /// The seed's MongoDB side on the real thing. Every write concern is spelled out: left unset, a 5.0+ replica set
    /// would apply its own default (w:majority) and the baseline would not be the seed's "acknowledged".
    /// </summary>
    private static Variant[] MongoDb() =>
    [
        new(StoreKind.MongoDb, Document, "baseline", "baseline",
            "acknowledged writes (w:1, j:false), the driver's implicit session per command", false,
            "w:1, j:false: acknowledged before the journal sync; a crash can lose up to journalCommitInterval (100 ms) of acknowledged writes",
            Settings(("Store:UnitOfWork", "PerCall"), ("Store:MongoDb:W", "1"), ("Store:MongoDb:Journal", "false"))),
        new(StoreKind.MongoDb, Document, "v1-shared-session", "variant 1",
            "acknowledged writes, one causally consistent session per request", false,
            "w:1, j:false: as baseline",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:MongoDb:W", "1"), ("Store:MongoDb:Journal", "false"))),
        new(StoreKind.MongoDb, Document, "v4-journaled", "variant 4",
            "journaled writes (j:true) at the server's default journalCommitInterval (100 ms)", true,
            "w:1, j:true: acknowledged after the journal sync",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:MongoDb:W", "1"), ("Store:MongoDb:Journal", "true"))),
        new(StoreKind.MongoDb, Document, "v5-group-commit", "variant 5",
            "journaled writes on a mongod started with --journalCommitInterval 2 (ms)", true,
            "w:1, j:true, server journalCommitInterval=2 ms",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:MongoDb:W", "1"), ("Store:MongoDb:Journal", "true")),
            Server: MongoTarget.GroupCommitServer),
        new(StoreKind.MongoDb, Document, "majority", "new",
            "w:majority with wtimeout 1 s, majority reads (a single-node replica set: the majority is that node)", true,
            "w:majority, j:true (writeConcernMajorityJournalDefault), read concern majority: never rolled back by a failover",
            Settings(("Store:UnitOfWork", "PerRequest"), ("Store:MongoDb:W", "majority"), ("Store:MongoDb:Journal", "true"),
                ("Store:MongoDb:WTimeoutMilliseconds", "1000"), ("Store:MongoDb:ReadConcern", "Majority"))),
    ];

    private static Dictionary<string, string> Settings(params (string Key, string Value)[] pairs) =>
        pairs.ToDictionary(p => p.Key, p => p.Value, StringComparer.OrdinalIgnoreCase);
}
