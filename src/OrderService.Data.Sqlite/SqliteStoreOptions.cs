using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;

namespace OrderService.Data.Sqlite;

public enum SqliteSynchronous
{
    Off,
    Normal,
    Full,
}

[Description("The SQLite durability and write-path knobs (with Store:Provider=Sqlite).")]
public sealed class SqliteStoreOptions
{
    public const string SectionName = "Store:Sqlite";

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

[OptionsValidator]
public sealed partial class SqliteStoreOptionsValidator : IValidateOptions<SqliteStoreOptions>;
