namespace OrderService.Testing;

/// <summary>
/// The test traits that say which store a test runs against: <c>Store</c> on every test that reaches that store's
/// database (its server, or a SQLite file), on its class, method or theory row, and <c>Layout=Document</c> where it
/// runs the document layout (no trait: relational). Filter with <c>-trait "Store=PostgreSql"</c>; scripts/test.sh
/// counts the tests per store from them, so a test that reaches no database (every test in tests/Unit) carries none.
/// <c>Server=PgAutoFailover</c> marks a PostgreSQL test on a pg_auto_failover cluster of its own rather than the
/// throwaway cluster: it skips, with the reason, where pg_auto_failover is not installed (the asynchronous report also
/// unless asked for), and scripts/test.sh accepts that skip, though no other PostgreSQL test may skip.
/// </summary>
public static class StoreTraits
{
    public const string Store = "Store";
    public const string Layout = "Layout";
    public const string Server = "Server";

    public const string SQLite = "SQLite";
    public const string PostgreSql = "PostgreSql";
    public const string SqlServer = "SqlServer";
    public const string MongoDb = "MongoDb";
    public const string Citus = "Citus";

    public const string Document = "Document";
    public const string Relational = "Relational";

    public const string PgAutoFailover = "PgAutoFailover";
}
