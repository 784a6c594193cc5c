using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;

namespace OrderService.Data;

public enum StoreProvider
{
    Sqlite,
    PostgreSql,
    SqlServer,

    /// <summary>MongoDB.Driver: one document per order, whatever Store:Layout says.</summary>
    MongoDb,
}

public enum StoreLayout
{
    Relational,

    Document,
}

public enum UnitOfWork
{
    PerRequest,

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

    ReadUncommitted,
}

public enum BatchFilter
{
    Json,

    InList,
}

/// <summary>The <c>Store</c> section: which store, which layout, and the seed's switches.</summary>
[Description("Which store, which layout, and the reference study's switches.")]
public sealed class StoreOptions : IValidatableObject
{
    public const string SectionName = "Store";

    [Description("The database engine that stores the orders.")]
    public StoreProvider Provider { get; set; } = StoreProvider.Sqlite;

    [Description("Relational: tables for orders, lines and events; Document: one JSON document per order with its " +
        "events embedded (MongoDB is always Document; SqlServer has Relational only).")]
    [EnumDataType(typeof(StoreLayout))]
    public StoreLayout Layout { get; set; } = StoreLayout.Relational;

    [Description("PerRequest: one connection and transaction span the read, the status update and the event insert; " +
        "PerCall: every repository call opens its own connection and commits on its own.")]
    [EnumDataType(typeof(UnitOfWork))]
    public UnitOfWork UnitOfWork { get; set; } = UnitOfWork.PerRequest;

    [Description("The isolation level of the transactions that write.")]
    [EnumDataType(typeof(WriteIsolation))]
    public WriteIsolation WriteIsolation { get; set; } = WriteIsolation.ReadCommitted;

    [Description("The isolation of the reads: ReadUncommitted is NOLOCK on SQL Server, a shared cache with " +
        "read_uncommitted on SQLite, and ReadCommitted on PostgreSQL.")]
    [EnumDataType(typeof(ReadIsolation))]
    public ReadIsolation ReadIsolation { get; set; } = ReadIsolation.ReadCommitted;

    [Description("How a batch read passes its ids: Json, one parameter carrying all ids (OPENJSON / uuid[] / " +
        "json_each); InList, one parameter per id, chunked below the driver's limit.")]
    [EnumDataType(typeof(BatchFilter))]
    public BatchFilter BatchFilter { get; set; } = BatchFilter.Json;

    [Description("Seconds a single database command may run before the driver cancels it.")]
    [Range(1, 600)]
    public int CommandTimeoutSeconds { get; set; } = 5;

    [ValidateObjectMembers]
    public SqliteStoreOptions Sqlite { get; set; } = new();

    [ValidateObjectMembers]
    public PostgreSqlStoreOptions PostgreSql { get; set; } = new();

    public SqlServerStoreOptions SqlServer { get; set; } = new();

    [ValidateObjectMembers]
    public MongoStoreOptions MongoDb { get; set; } = new();

    [ValidateObjectMembers]
    public IdempotencyKeyOptions IdempotencyKeys { get; set; } = new();

    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (Layout == StoreLayout.Document && Provider == StoreProvider.SqlServer)
        {
            yield return new ValidationResult("Invalid setting Store:Layout = \"Document\"; allowed: Relational with " +
                "Store:Provider=SqlServer (the document layout needs PostgreSql or Sqlite).", [nameof(Layout)]);
        }
    }
}

/// <summary>Checks <see cref="StoreOptions"/> and its nested sections against their data annotations.</summary>
[OptionsValidator]
public sealed partial class StoreOptionsValidator : IValidateOptions<StoreOptions>;

public enum SqliteSynchronous
{
    Off,
    Normal,
    Full,
}

/// <summary><c>Store:Sqlite</c>.</summary>
[Description("The SQLite durability and write-path knobs (with Store:Provider=Sqlite).")]
public sealed class SqliteStoreOptions
{
    [Description("PRAGMA synchronous: Full syncs the WAL at every commit (durable across power loss); Normal and Off " +
        "trade that for speed.")]
    [EnumDataType(typeof(SqliteSynchronous))]
    public SqliteSynchronous Synchronous { get; set; } = SqliteSynchronous.Full;

    [Description("true: one writer connection commits the writes of many concurrent requests in one transaction (one " +
        "WAL sync), each in its own savepoint, acknowledged after the commit; false: every request commits on its " +
        "own connection.")]
    public bool GroupCommit { get; set; } = true;

    [Description("The most writes one group commit may carry.")]
    [Range(1, 10_000)]
    public int GroupCommitMaxBatch { get; set; } = 256;

    [Description("PRAGMA busy_timeout for the connections that write outside the group writer.")]
    [Range(0, 600_000)]
    public int BusyTimeoutMilliseconds { get; set; } = 5_000;
}

/// <summary>How the PostgreSQL store lays its tables over the servers.</summary>
public enum PostgreSqlDistribution
{
    None,

    Citus,
}

public enum PostgreSqlSynchronousCommit
{
    On,
    Off,
    Local,
}

/// <summary><c>Store:PostgreSql</c>.</summary>
[Description("The PostgreSQL durability and group-commit knobs, set per session at connect time (with " +
    "Store:Provider=PostgreSql).")]
public sealed class PostgreSqlStoreOptions
{
    [Description("synchronous_commit, per session: On waits for the WAL flush (like MongoDB j:true); Off does not " +
        "(j:false).")]
    [EnumDataType(typeof(PostgreSqlSynchronousCommit))]
    public PostgreSqlSynchronousCommit SynchronousCommit { get; set; } = PostgreSqlSynchronousCommit.On;

    [Description("commit_delay in microseconds (the server's group commit, the analogue of MongoDB's journal commit " +
        "interval); 0 leaves the server's setting alone; setting it needs a superuser role.")]
    [Range(0, 100_000)]
    public int CommitDelayMicroseconds { get; set; }

    [Description("commit_siblings: how many other open transactions make the delay worth it; 0 leaves the server's " +
        "setting alone.")]
    [Range(0, 1000)]
    public int CommitSiblings { get; set; }

    [Description("true (with Store:UnitOfWork=PerRequest and Store:WriteIsolation=ReadCommitted): the one-statement " +
        "writes of concurrent requests travel together, one round trip, transaction and WAL flush per group, each " +
        "acknowledged after that commit; false: every request commits on its own connection.")]
    public bool GroupCommit { get; set; } = true;

    [Description("The most writes one group may carry.")]
    [Range(1, 10_000)]
    public int GroupCommitMaxBatch { get; set; } = 128;

    [Description("None: plain tables on one primary; Citus: the service distributes its tables on the order id " +
        "(colocated), runs every workflow statement on one shard, and turns its group commit off " +
        "(docs/stores/citus.md).")]
    [EnumDataType(typeof(PostgreSqlDistribution))]
    public PostgreSqlDistribution Distribution { get; set; } = PostgreSqlDistribution.None;

    [Description("How many groups may be in flight at once, each on a connection of its own.")]
    [Range(1, 64)]
    public int GroupCommitWriters { get; set; } = 2;

    [Description("A standby's connection string: GET by id, the batch and the listing read there; a miss is re-read " +
        "on the primary. Empty: every read goes to the primary.")]
    public string? ReadConnectionString { get; set; }
}
