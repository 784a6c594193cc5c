using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;
using MongoDB.Driver;

namespace OrderService.Data.MongoDb;

[Description("The MongoDB write and read concerns, and how lists are read (with Store:Provider=MongoDb). Every key " +
    "is optional; a key set here wins over the same option in the mongodb:// connection string, which wins over the " +
    "driver's and the server's defaults.")]
public sealed class MongoStoreOptions
{
    public const string SectionName = "Store:MongoDb";

    public const string WTimeoutRule = "1 to below Resilience:AttemptTimeoutSeconds in milliseconds, so the server's " +
        "write-concern timeout arrives before the attempt is abandoned";

    /// <summary>
    /// The server's default is w:majority on a replica set, so the "acknowledged" baseline says w:1. w:0,
    /// unacknowledged, could not report a duplicate key or a conditional update's result.
    /// </summary>
    [Description("The write concern's w: majority, or how many members must acknowledge. Unset: the connection " +
        "string's w, else the server's default write concern. Allowed: majority, or 1 to 50 members.")]
    [RegularExpression("^(?i:majority)$|^([1-9]|[1-4][0-9]|50)$")]
    public string? W { get => _w; set => _w = string.IsNullOrWhiteSpace(value) ? null : value.Trim(); }

    private string? _w;

    [Description("The write concern's j: true acknowledges a write once it is in the on-disk journal. Unset: the " +
        "connection string's journal, else the server's default.")]
    public bool? Journal { get; set; }

    [Description("The write concern's wtimeout: how long the server waits for W members before it answers with a " +
        "write-concern error (the write stays applied on the primary). Unset: the connection string's wtimeoutMS, " +
        "else no limit. Allowed: " + WTimeoutRule + ".")]
    public int? WTimeoutMilliseconds { get; set; }

    [Description("The read concern of the reads (get, batch, listing): Majority returns only what no failover can " +
        "roll back. Unset: the connection string's readConcernLevel, else the server's (local).")]
    [EnumDataType(typeof(MongoReadConcern))]
    public MongoReadConcern? ReadConcern { get; set; }

    [Description("Which members the reads may go to (a secondary may lag; a GET or batch id it lacks is re-read on " +
        "the primary). Unset: the connection string's readPreference, else the primary.")]
    [EnumDataType(typeof(ReadPreferenceMode))]
    public ReadPreferenceMode? ReadPreference { get; set; }
}

/// <summary>The read concern levels a plain read may use, each the driver's level of that name.</summary>
public enum MongoReadConcern
{
    /// <summary>The member's newest data, which a failover may still roll back.</summary>
    Local,

    /// <summary>Only writes a majority of the replica set has acknowledged: never rolled back.</summary>
    Majority,

    /// <summary>Like local; on a sharded cluster it also skips the orphan filter.</summary>
    Available,
}

[OptionsValidator]
public sealed partial class MongoStoreOptionsAnnotations : IValidateOptions<MongoStoreOptions>;
