namespace OrderService.Data.MongoDb;

/// <summary>
/// <c>Store:MongoDb</c>: the seed's MongoDB switches, each honoured in one place (<see cref="MongoSettings"/>).
/// Every key is optional. Precedence, per setting: a key set here wins over the same option in the
/// <c>mongodb://</c> connection string, which wins over the driver's and the server's defaults. So an operator can
/// keep one URI and let a variant change only what it names. Validated at start-up
/// (<see cref="MongoStoreOptionsValidator"/>) and logged at start-up with where each value came from.
/// </summary>
public sealed class MongoStoreOptions
{
    public const string SectionName = "Store:MongoDb";

    /// <summary>
    /// The write concern's <c>w</c>: <c>majority</c>, or how many members must acknowledge (1–50). Unset: the URI's
    /// <c>w</c>, else the server's default write concern (w:majority on a replica set since MongoDB 5.0, which is why
    /// the seed's "acknowledged" baseline must say w:1 explicitly). w:0 is refused: an unacknowledged write cannot
    /// report a duplicate key or whether a conditional update matched. Empty counts as unset, so an environment
    /// (a ConfigMap) can list the key without choosing a value.
    /// </summary>
    public string? W { get => _w; set => _w = string.IsNullOrWhiteSpace(value) ? null : value; }

    private string? _w;

    /// <summary>The write concern's <c>j</c>: true waits until the write is in the on-disk journal. Unset: the URI's <c>journal</c>, else the server's default.</summary>
    public bool? Journal { get; set; }

    /// <summary>
    /// The write concern's <c>wtimeout</c> in ms: how long the server waits for <see cref="W"/> members before it answers
    /// with a write-concern error (the write itself stays applied on the primary). Unset: the URI's <c>wtimeoutMS</c>, else none.
    /// Must be below Resilience:AttemptTimeoutSeconds, or the attempt is abandoned before the server could say so.
    /// </summary>
    public int? WTimeoutMilliseconds { get; set; }

    /// <summary>The read concern of the reads (get, batch, listing). Unset: the URI's <c>readConcernLevel</c>, else the server's default (local).</summary>
    public MongoReadConcern? ReadConcern { get; set; }

    /// <summary>Which members the reads may go to. Unset: the URI's <c>readPreference</c>, else primary.</summary>
    public MongoReadPreference? ReadPreference { get; set; }
}

/// <summary>The read concern levels a plain read may use (snapshot and linearizable are left out: they need a transaction or a single-document read).</summary>
public enum MongoReadConcern
{
    /// <summary>The member's newest data, which a failover may still roll back.</summary>
    Local,

    /// <summary>Only writes a majority of the replica set has acknowledged: never rolled back.</summary>
    Majority,

    /// <summary>Like local; on a sharded cluster it also skips the orphan filter (the fastest, least consistent).</summary>
    Available,
}

public enum MongoReadPreference
{
    Primary,
    PrimaryPreferred,
    Secondary,
    SecondaryPreferred,
    Nearest,
}
