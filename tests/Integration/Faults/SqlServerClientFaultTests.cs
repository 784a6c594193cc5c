using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Integration.Tests.Conformance.Stores;
using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Faults;

/// <summary>SqlClient against a closed port: a SqlException (error 0, a refused socket), which the store calls transient.</summary>
[Trait(StoreTraits.Store, StoreTraits.SqlServer)]
public sealed class SqlServerClientFaultTests() : ClientFaultSuite(new Dictionary<string, string?>
{
    ["Store:Provider"] = nameof(StoreProvider.SqlServer),
    [$"ConnectionStrings:{StoreRegistration.ConnectionStringName}"] = SqlServerDown.ConnectionString(),
});
