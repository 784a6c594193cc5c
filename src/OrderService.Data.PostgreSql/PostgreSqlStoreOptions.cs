using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;

namespace OrderService.Data.PostgreSql;

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

[Description("The PostgreSQL durability and group-commit knobs, set per session at connect time (with " +
    "Store:Provider=PostgreSql).")]
public sealed class PostgreSqlStoreOptions
{
    public const string SectionName = "Store:PostgreSql";

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

[OptionsValidator]
public sealed partial class PostgreSqlStoreOptionsValidator : IValidateOptions<PostgreSqlStoreOptions>;
