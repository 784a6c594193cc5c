using System.Data;
using System.Diagnostics;
using System.Reflection;
using Microsoft.Data.SqlClient;
using OrderService.Data.SqlServer;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.SqlServer;

/// <summary>
/// SqlClient loads Microsoft.SqlServer.Server as soon as a parameter has a value. Without our stand-in
/// (build/SqlClient.targets) the first line of these tests throws FileNotFoundException.
/// </summary>
public sealed class StandInBindingTests
{
    [Fact]
    public void A_parameter_with_a_value_infers_its_type()
    {
        var parameter = new SqlParameter("@p", "x");

        parameter.SqlDbType.ShouldBe(SqlDbType.NVarChar);
        parameter.Size.ShouldBe(1);
    }

    [Fact]
    public void The_reference_binds_to_the_stand_in_by_strong_name()
    {
        _ = new SqlParameter("@p", Guid.NewGuid()).SqlDbType;

        var reference = typeof(SqlConnection).Assembly.GetReferencedAssemblies().Single(a => a.Name == "Microsoft.SqlServer.Server");
        var loaded = Assembly.Load(reference).GetName();

        loaded.Version.ShouldBe(new Version(1, 0, 0, 0));
        Convert.ToHexStringLower(loaded.GetPublicKeyToken()!).ShouldBe("23ec7fc2d6eaa4a5");
        Convert.ToHexStringLower(reference.GetPublicKeyToken()!).ShouldBe("23ec7fc2d6eaa4a5");
        Assembly.Load(reference).GetType("Microsoft.SqlServer.Server.InvalidUdtException")!
            .GetMethod("Create", [typeof(Type), typeof(string)]).ShouldNotBeNull();
    }

    [Fact]
    public async Task A_closed_port_gives_a_transient_SqlException_within_the_connect_timeout()
    {
        var clock = Stopwatch.StartNew();
        await using var connection = new SqlConnection(ClosedPort.ConnectionString(connectTimeoutSeconds: 1));

        var fault = await Should.ThrowAsync<SqlException>(() => connection.OpenAsync(TestContext.Current.CancellationToken));

        clock.Elapsed.ShouldBeLessThan(TimeSpan.FromSeconds(10));
        SqlServerTransientFaults.Instance.IsTransient(fault).ShouldBeTrue(fault.ToString());
    }
}
