using System.ComponentModel.DataAnnotations;
using OrderService.Data.Configuration;

namespace OrderService.Data;

public enum StoreProvider
{
    Sqlite,
    PostgreSql,
    SqlServer,

    /// <summary>MongoDB.Driver: one document per order whatever Store:Layout says; its switches are <see cref="StoreOptions.MongoDb"/>.</summary>
    MongoDb,
}

public enum StoreLayout
{
    /// <summary>Tables for orders, order lines and order events (the seed's SQL Server side).</summary>
    Relational,

    /// <summary>One document per order with its events embedded (the seed's MongoDB side).</summary>
    Document,
}

public enum UnitOfWork
{
    /// <summary>One connection and one transaction span the read, the status update and the event insert of a request (the seed's shared context).</summary>
    PerRequest,

    /// <summary>Every repository call opens its own connection and commits on its own (the seed's new context per part).</summary>
    PerCall,
}

public enum WriteIsolation
{
    ReadCommitted,
    RepeatableRead,
    Serializable,
}

public enum ReadIsolation
{
    ReadCommitted,

    /// <summary>NOLOCK on SQL Server; shared cache with read_uncommitted on SQLite; the same as ReadCommitted on PostgreSQL.</summary>
    ReadUncommitted,
}

public enum BatchFilter
{
    /// <summary>One parameter carries all ids (OPENJSON / uuid[] / json_each), so one plan serves any count.</summary>
    Json,

    /// <summary>One parameter per id, chunked below the driver's parameter limit.</summary>
    InList,
}

/// <summary>The <c>Store</c> section: which store, which layout, and the seed's switches. Validated at start-up.</summary>
public sealed class StoreOptions
{
    public const string SectionName = "Store";

    public StoreProvider Provider { get; set; } = StoreProvider.Sqlite;

    public StoreLayout Layout { get; set; } = StoreLayout.Relational;

    public UnitOfWork UnitOfWork { get; set; } = UnitOfWork.PerRequest;

    public WriteIsolation WriteIsolation { get; set; } = WriteIsolation.ReadCommitted;

    public ReadIsolation ReadIsolation { get; set; } = ReadIsolation.ReadCommitted;

    public BatchFilter BatchFilter { get; set; } = BatchFilter.Json;

    /// <summary>Seconds a single database command may run before the driver cancels it.</summary>
    [Range(1, 600)]
    public int CommandTimeoutSeconds { get; set; } = 5;

    public SqliteStoreOptions Sqlite { get; set; } = new();

    public PostgreSqlStoreOptions PostgreSql { get; set; } = new();

    public MongoDb.MongoStoreOptions MongoDb { get; set; } = new();
}

public enum SqliteSynchronous
{
    Off,
    Normal,
    Full,
}

/// <summary><c>Store:Sqlite</c>: the SQLite durability and write-path knobs.</summary>
public sealed class SqliteStoreOptions
{
    /// <summary>PRAGMA synchronous. FULL syncs the WAL at every commit: durable across power loss.</summary>
    public SqliteSynchronous Synchronous { get; set; } = SqliteSynchronous.Full;

    /// <summary>
    /// When true, one writer connection commits the writes of many concurrent requests in one
    /// transaction (one WAL sync for the group), each request in its own savepoint, and acknowledges
    /// each only after the group's commit. When false, every request commits on its own connection.
    /// </summary>
    public bool GroupCommit { get; set; } = true;

    /// <summary>The most writes one group commit may carry.</summary>
    [Range(1, 10_000)]
    public int GroupCommitMaxBatch { get; set; } = 256;

    /// <summary>PRAGMA busy_timeout for connections that write outside the group writer.</summary>
    [Range(0, 600_000)]
    public int BusyTimeoutMilliseconds { get; set; } = 5_000;
}

public enum PostgreSqlSynchronousCommit
{
    On,
    Off,
    Local,
}

/// <summary><c>Store:PostgreSql</c>: the PostgreSQL durability knobs, set per session at connect time.</summary>
public sealed class PostgreSqlStoreOptions
{
    /// <summary>synchronous_commit: On waits for the WAL flush (MongoDB j:true); Off does not (j:false).</summary>
    public PostgreSqlSynchronousCommit SynchronousCommit { get; set; } = PostgreSqlSynchronousCommit.On;

    /// <summary>
    /// commit_delay in microseconds (group commit, the analogue of MongoDB's journal commit interval);
    /// 0 leaves the server's setting alone. Setting it needs a superuser role.
    /// </summary>
    [Range(0, 100_000)]
    public int CommitDelayMicroseconds { get; set; }

    /// <summary>commit_siblings: how many other open transactions make the delay worth it; 0 leaves the server's setting alone.</summary>
    [Range(0, 1000)]
    public int CommitSiblings { get; set; }

    /// <summary>
    /// When true (and Store:UnitOfWork=PerRequest, Store:WriteIsolation=ReadCommitted), the one-statement writes of
    /// concurrent requests (creates, transitions) travel together: one round trip, one transaction, one commit and WAL
    /// flush for the group, each request acknowledged only after that commit. When false, every request commits on its
    /// own connection.
    /// </summary>
    public bool GroupCommit { get; set; } = true;

    /// <summary>The most writes one group may carry.</summary>
    [Range(1, 10_000)]
    public int GroupCommitMaxBatch { get; set; } = 128;

    /// <summary>How many groups may be in flight at once (each on a connection of its own).</summary>
    [Range(1, 64)]
    public int GroupCommitWriters { get; set; } = 2;

    /// <summary>
    /// Where reads go: a standby's connection string (or several hosts with Target Session Attributes=prefer-standby).
    /// When set, GET by id, the batch and the customer listing read there; writes stay on ConnectionStrings:Orders.
    /// A GET or batch id the standby does not have yet is re-read on the primary; a listing may lag by the
    /// replication delay (docs/read-replicas.md). Empty: every read goes to the primary.
    /// </summary>
    [PostgreSqlConnectionString]
    public string? ReadConnectionString { get; set; }
}
