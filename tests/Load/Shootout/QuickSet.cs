namespace OrderService.Load.Shootout;

/// <summary>
/// The shoot-out's default selection (`--variants quick`, or no `--variants`): a first answer in minutes rather than the
/// whole matrix. Per store: the service's default settings (the row an operator gets without configuring anything), the
/// seed's baseline (a connection per repository call, serializable writes), and one row that trades durability for speed,
/// so the first report already shows what the defaults cost and what giving up the flush would buy.
/// The traded rows are the ones that lose nothing when only the process dies: SQLite synchronous=NORMAL in WAL mode
/// (a power loss can drop the last commits; an application crash cannot) and PostgreSQL synchronous_commit=off (a
/// server crash can drop the last moments of commits, nothing is corrupted), the analogue of MongoDB's j:false.
/// MongoDB: the service leaves the write concern unset by default, which a 5.0+ replica set reads as w:majority, so
/// its default row is `majority`; its baseline (w:1, j:false) is already the traded row. SQL Server has no traded variant. Citus has only its durable
/// rows, one per layout (VariantCatalog).
/// </summary>
public static class QuickSet
{
    public const string Selector = "quick";

    /// <summary>Variant keys (store/layout/name) of the quick set, in the catalog's naming.</summary>
    public static readonly IReadOnlyList<string> Keys =
    [
        "sqlite/relational/v1-shared-uow",
        "sqlite/relational/baseline",
        "sqlite/relational/durability-traded",
        "postgres/relational/v1-shared-uow",
        "postgres/relational/baseline",
        "postgres/relational/durability-traded",
        "sqlserver/relational/v1-shared-uow",
        "sqlserver/relational/baseline",
        "mongodb/document/majority",
        "mongodb/document/baseline",
        "citus/relational/v1-shared-uow",
        "citus/document/journaled-grouped",
    ];

    public static bool IsSelector(string selector) => selector.Equals(Selector, StringComparison.OrdinalIgnoreCase);

    public static bool Contains(Variant variant) => Keys.Contains(variant.Key, StringComparer.OrdinalIgnoreCase);
}
