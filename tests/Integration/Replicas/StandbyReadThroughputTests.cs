using System.Diagnostics;
using System.Globalization;
using System.Net;
using Npgsql;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Replicas;

/// <summary>
/// GET by id with the standby switch off and on, in one run, on one primary and its standby: the ratio goes to the
/// test output (docs/read-replicas.md quotes it). Both clusters and the service share this machine's cores, so the
/// ratio says what moving reads costs or saves here, not what a standby on its own server would add.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class StandbyReadThroughputTests(PrimaryWithStandby pair) : IClassFixture<PrimaryWithStandby>
{
    private const int Orders = 256;
    private const int ReadsPerRound = 4_000;
    private const int Concurrency = 32;
    private static readonly TimeSpan RoundLimit = TimeSpan.FromSeconds(60);

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Reads_by_id_with_the_switch_off_and_on()
    {
        var off = new OrderApi(pair.Create("Relational", readsFromStandby: false).CreateClient(), Ct);
        var on = new OrderApi(pair.Create("Relational", readsFromStandby: true).CreateClient(), Ct);
        var ids = new List<Guid>();
        for (var i = 0; i < Orders; i++)
        {
            ids.Add((await off.CreateOrderAsync(Ids.NewCustomer())).Id);
        }

        await pair.CatchUpAsync();
        await ReadRoundAsync(off, ids, 500);
        (await StandbyBackendsAsync()).ShouldBe(0, "with the switch off nothing may connect to the standby");
        await ReadRoundAsync(on, ids, 500);
        (await StandbyBackendsAsync()).ShouldBeGreaterThan(0, "with the switch on the reads must reach the standby");

        // Alternating rounds, so a slow moment of this shared machine falls on both sides alike.
        var seconds = new Dictionary<OrderApi, TimeSpan> { [off] = TimeSpan.Zero, [on] = TimeSpan.Zero };
        for (var round = 0; round < 2; round++)
        {
            foreach (var api in new[] { off, on })
            {
                seconds[api] += await ReadRoundAsync(api, ids, ReadsPerRound);
            }
        }

        var offRate = 2 * ReadsPerRound / seconds[off].TotalSeconds;
        var onRate = 2 * ReadsPerRound / seconds[on].TotalSeconds;
        TestContext.Current.TestOutputHelper?.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"GET by id, {Concurrency} concurrent, 2 x {ReadsPerRound} per side: primary only {offRate:F0}/s, standby reads {onRate:F0}/s, on/off {onRate / offRate:F2}"));
    }

    /// <summary>GETs <paramref name="count"/> orders by id, <see cref="Concurrency"/> at a time, each must be 200; bounded by <see cref="RoundLimit"/>.</summary>
    private static async Task<TimeSpan> ReadRoundAsync(OrderApi api, List<Guid> ids, int count)
    {
        using var limit = CancellationTokenSource.CreateLinkedTokenSource(Ct);
        limit.CancelAfter(RoundLimit);
        var next = -1;
        var clock = Stopwatch.StartNew();
        await Task.WhenAll(Enumerable.Range(0, Concurrency).Select(async _ =>
        {
            for (var i = Interlocked.Increment(ref next); i < count; i = Interlocked.Increment(ref next))
            {
                using var response = await api.Http.GetAsync($"/orders/{ids[i % ids.Count]}", limit.Token);
                response.StatusCode.ShouldBe(HttpStatusCode.OK);
            }
        }));
        return clock.Elapsed;
    }

    /// <summary>Sessions on the standby connected to the orders database (the harness's own use the postgres database).</summary>
    private async Task<long> StandbyBackendsAsync()
    {
        var database = new NpgsqlConnectionStringBuilder(pair.StandbyConnectionString).Database;
        await using var connection = new NpgsqlConnection(pair.Standby.ConnectionString("postgres"));
        await connection.OpenAsync(Ct);
        await using var command = new NpgsqlCommand("SELECT count(*) FROM pg_stat_activity WHERE datname = @database", connection);
        command.Parameters.AddWithValue("database", database!);
        return (long)(await command.ExecuteScalarAsync(Ct))!;
    }
}
