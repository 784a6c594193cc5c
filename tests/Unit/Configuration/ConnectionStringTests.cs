using Microsoft.Data.SqlClient;
using OrderService.Data;
using OrderService.Data.SqlServer;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Configuration;

public sealed class ConnectionStringTests
{
    [Fact]
    public void Without_a_connect_timeout_the_store_waits_no_longer_than_a_command()
    {
        var normalized = SqlServerStores.NormalizeConnectionString("Server=127.0.0.1,1433;User Id=sa;Password=x", new StoreOptions { CommandTimeoutSeconds = 4 });

        var builder = new SqlConnectionStringBuilder(normalized);
        builder.ConnectTimeout.ShouldBe(4); // SqlClient's own default, 15 s, would outlast the request's 503 budget
        builder.ApplicationName.ShouldBe("OrderService");
        builder.PoolBlockingPeriod.ShouldBe(PoolBlockingPeriod.NeverBlock); // Auto would fail every open for up to a minute after one failed
    }

    [Theory]
    [InlineData("Connect Timeout=30")]
    [InlineData("Connection Timeout=30")]
    [InlineData("Timeout=30")]
    public void The_operators_own_settings_win(string timeout)
    {
        var normalized = SqlServerStores.NormalizeConnectionString($"Server=db;{timeout};Application Name=ops;Pool Blocking Period=AlwaysBlock", new StoreOptions());

        var builder = new SqlConnectionStringBuilder(normalized);
        builder.ConnectTimeout.ShouldBe(30);
        builder.ApplicationName.ShouldBe("ops");
        builder.PoolBlockingPeriod.ShouldBe(PoolBlockingPeriod.AlwaysBlock);
    }
}
