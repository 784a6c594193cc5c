namespace OrderService.Testing;

/// <summary>
/// The test traits that say which store a test runs against: <c>Store</c> on every store-specific test class (or
/// theory row), <c>Layout=Document</c> where it runs the document layout (no trait: relational). Filter with
/// <c>-trait "Store=PostgreSql"</c>; scripts/test.sh counts the tests per store from them. A test without a
/// <c>Store</c> trait is store-independent.
/// </summary>
public static class StoreTraits
{
    public const string Store = "Store";
    public const string Layout = "Layout";

    public const string SQLite = "SQLite";
    public const string PostgreSql = "PostgreSql";
    public const string SqlServer = "SqlServer";
    public const string MongoDb = "MongoDb";
    public const string Citus = "Citus";

    public const string Document = "Document";
    public const string Relational = "Relational";
}
