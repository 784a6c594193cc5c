using Npgsql;
using OrderService.Data;
using OrderService.Data.PostgreSql;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Configuration;

/// <summary>The session settings the PostgreSQL store puts in the startup packet (the server's own view: PostgresPlanCacheTests).</summary>
public sealed class PostgresSessionSettingsTests
{
    [Fact]
    public void Sessions_keep_one_generic_plan_per_prepared_statement()
    {
        Tuned("Host=db;Database=orders", new PostgreSqlStoreOptions()).Options
            .ShouldBe("-c synchronous_commit=on -c plan_cache_mode=force_generic_plan");
    }

    [Fact]
    public void A_plan_cache_mode_in_the_connection_string_is_kept_and_not_overridden()
    {
        Tuned("Host=db;Database=orders;Options=-c plan_cache_mode=auto", new PostgreSqlStoreOptions()).Options
            .ShouldBe("-c plan_cache_mode=auto -c synchronous_commit=on");
    }

    [Fact]
    public void On_Citus_the_plan_cache_is_left_to_the_server()
    {
        var options = new PostgreSqlStoreOptions { Distribution = PostgreSqlDistribution.Citus };

        Tuned("Host=db;Database=orders", options).Options.ShouldBe("-c synchronous_commit=on");
    }

    private static NpgsqlConnectionStringBuilder Tuned(string connectionString, PostgreSqlStoreOptions postgres)
    {
        var builder = new NpgsqlConnectionStringBuilder();
        PostgresDatabase.Tune(builder, connectionString, new StoreOptions(), postgres);
        return builder;
    }
}
