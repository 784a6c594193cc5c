using OrderService.Integration.Tests.Conformance.Stores;
using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Model;

// One class per store and layout, with its store's traits: scripts/test.sh counts tests per store by them.
// Each takes its own host and database from the conformance suite's fixtures.
[Trait(StoreTraits.Store, StoreTraits.SQLite)]
public sealed class SqliteRelationalModelTests(SqliteRelationalStore store) : ModelBasedSuite<SqliteRelationalStore>(store);

[Trait(StoreTraits.Store, StoreTraits.SQLite)]
[Trait(StoreTraits.Layout, StoreTraits.Document)]
public sealed class SqliteDocumentModelTests(SqliteDocumentStore store) : ModelBasedSuite<SqliteDocumentStore>(store);

[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class PostgresRelationalModelTests(PostgresRelationalStore store) : ModelBasedSuite<PostgresRelationalStore>(store);

[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
[Trait(StoreTraits.Layout, StoreTraits.Document)]
public sealed class PostgresDocumentModelTests(PostgresDocumentStore store) : ModelBasedSuite<PostgresDocumentStore>(store);

/// <summary>Skipped, with the reason, unless ORDERS_TEST_SQLSERVER names a server or Docker can start one.</summary>
[Trait(StoreTraits.Store, StoreTraits.SqlServer)]
public sealed class SqlServerRelationalModelTests(SqlServerRelationalStore store) : ModelBasedSuite<SqlServerRelationalStore>(store);

/// <summary>Skipped, with the reason, unless ORDERS_TEST_MONGODB names a server or Docker can start one.</summary>
[Trait(StoreTraits.Store, StoreTraits.MongoDb)]
public sealed class MongoModelTests(OrderService.Integration.Tests.Conformance.Stores.MongoStore store) : ModelBasedSuite<OrderService.Integration.Tests.Conformance.Stores.MongoStore>(store);
