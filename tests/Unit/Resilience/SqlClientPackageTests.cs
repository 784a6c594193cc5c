using System.Data;
using System.Diagnostics;
using Microsoft.Data.SqlClient;
using OrderService.Data;
using OrderService.Data.SqlServer;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Resilience;

/// <summary>
/// The SqlClient package as shipped: a parameter with a value makes SqlClient load Microsoft.SqlServer.Server
/// (the real 1.0.0 package, a dependency of SqlClient 7.1), and a refused connection surfaces as a transient
/// SqlException within the connect time-out.
/// </summary>
public sealed class SqlClientPackageTests
{
    [Fact]
    public void A_parameter_with_a_value_infers_its_type()
    {
        var parameter = new SqlParameter("@p", "x");

        parameter.SqlDbType.ShouldBe(SqlDbType.NVarChar);
        parameter.Size.ShouldBe(1);
    }

    [Fact]
    public async Task A_closed_port_gives_a_transient_SqlException_within_the_connect_timeout()
    {
        var clock = Stopwatch.StartNew();
        await using var connection = new SqlConnection(ClosedPort.ConnectionString(connectTimeoutSeconds: 1));

        var fault = await Should.ThrowAsync<SqlException>(() => connection.OpenAsync(TestContext.Current.CancellationToken));

        clock.Elapsed.ShouldBeLessThan(TimeSpan.FromSeconds(10));
        SqlServerTransientFaults.Instance.Classify(fault).ShouldNotBe(StoreFault.Permanent, fault.ToString());
    }
}
