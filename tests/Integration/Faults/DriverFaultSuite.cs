using System.Net;
using OrderService.Data.Hosting;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Faults;

/// <summary>
/// A driver that fails inside its own code mid-read, on a real server: a relay alters one value of a reply, which
/// stays well-formed, so that the driver throws as it reads the row but could go on using the connection. The read
/// answers 503 with Retry-After; the connection is closed instead of going back to the pool (the relay sees the
/// service hang up on it); the next reads succeed.
/// </summary>
public abstract class DriverFaultSuite<TStore>(TStore store) : IClassFixture<TStore>
    where TStore : StoreFixture
{
    private static readonly TimeSpan Bound = TimeSpan.FromSeconds(30);

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    /// <summary>The server's host and port in <paramref name="connectionString"/>.</summary>
    protected abstract (string Host, int Port) Server(string connectionString);

    /// <summary>
    /// <paramref name="connectionString"/> through the relay on loopback <paramref name="port"/>, unencrypted (the
    /// relay reads the replies), with idle connections kept for minutes: only a discarded one closes meanwhile.
    /// </summary>
    protected abstract string Relayed(string connectionString, int port);

    /// <summary>A value of <paramref name="stored"/> as a reply carries it, and altered: the driver fails on that.</summary>
    protected abstract (byte[] Sent, byte[] Corrupted) OnTheWire(OrderDto stored);

    [Fact]
    public async Task A_reply_the_driver_fails_on_mid_read_answers_503_and_its_connection_never_returns_to_the_pool()
    {
        if (store.UnavailableReason is { } reason)
        {
            Assert.Skip(reason);
        }

        var key = $"ConnectionStrings:{StoreRegistration.ConnectionStringName}";
        Dictionary<string, string?> settings;
        await using (var direct = await store.CreateFactoryAsync("driver_fault", []))
        {
            settings = new(direct.Settings, StringComparer.OrdinalIgnoreCase);
        }

        var (host, port) = Server(settings[key]!);
        await using var proxy = new TcpProxy(host, port);
        settings[key] = Relayed(settings[key]!, proxy.Port);
        await using var factory = new OrderServiceFactory(settings);
        using var client = factory.CreateClient();
        client.Timeout = TimeSpan.FromSeconds(60);
        var api = new OrderApi(client, Ct);
        var orders = new[]
        {
            await api.CreateOrderAsync(Ids.NewCustomer()),
            await api.CreateOrderAsync(Ids.NewCustomer()),
        };
        var ids = orders.Select(o => o.Id).ToArray();

        // A row of the batch's stream, which reads on a connection of its own.
        var (sent, corrupted) = OnTheWire(await api.GetOrderAsync(ids[1]));
        var closed = proxy.CorruptNextReply(sent, corrupted);
        using (var faulted = await api.PostAsync("/orders/batch", new { ids }))
        {
            await OrderApi.ReadProblemAsync(faulted, HttpStatusCode.ServiceUnavailable);
            faulted.Headers.RetryAfter.ShouldNotBeNull("a 503 must say when to retry");
        }

        (await Task.WhenAny(closed, Task.Delay(Bound, Ct)) == closed)
            .ShouldBeTrue("the connection the driver failed on must be closed, not kept in the pool");

        (await api.BatchAsync(ids)).Select(o => o.Id).ShouldBe(ids, ignoreOrder: true);
        foreach (var order in orders)
        {
            (await api.GetOrderAsync(order.Id)).Version.ShouldBe(order.Version);
        }

        (await api.ListAsync(orders[1].CustomerId)).ShouldHaveSingleItem().Id.ShouldBe(ids[1]);
    }
}
