using System.Net;
using System.Net.Http.Json;
using System.Net.Sockets;
using MongoDB.Driver;
using OrderService.Data;
using OrderService.Data.Hosting;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Servers;
using OrderService.Integration.Tests.StorePort;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Faults;

/// <summary>
/// A service started while MongoDB is unreachable answers 503 (ready 503, live 200) and serves again by itself once
/// MongoDB is reachable, with no restart: the driver's monitor finds the server, the schema gate creates the indexes
/// on the first call that gets through. "Unreachable" is a loopback port in front of the test server that refuses
/// connections until the test starts forwarding it.
/// </summary>
[Collection(nameof(MongoStoresCollection))]
[Trait(StoreTraits.Store, StoreTraits.MongoDb)]
public sealed class MongoRecoveryTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task A_service_started_while_MongoDB_is_unreachable_recovers_by_itself()
    {
        await MongoTestServer.RequireServerAsync();
        var port = FreePort.Loopback();
        var target = new MongoUrl(MongoTestServer.Uri!).Server;
        var uri = MongoTestServer.DatabaseUri("recovery", u =>
        {
            u.Server = new MongoServerAddress("127.0.0.1", port);
            u.Servers = [u.Server];
            u.DirectConnection = true; // the replica set's member names would lead around the forwarder
            u.ReplicaSetName = null;
        });
        await using var factory = new OrderServiceFactory(new Dictionary<string, string?>(StringComparer.OrdinalIgnoreCase)
        {
            ["Store:Provider"] = nameof(StoreProvider.MongoDb),
            [$"ConnectionStrings:{StoreRegistration.ConnectionStringName}"] = uri,
            ["Resilience:MaxRetries"] = "0",
        });
        using var client = factory.CreateClient();
        client.Timeout = TimeSpan.FromSeconds(60);
        try
        {
            using (var down = await client.GetAsync("/health/ready", Ct))
            {
                down.StatusCode.ShouldBe(HttpStatusCode.ServiceUnavailable);
            }

            using (var live = await client.GetAsync("/health/live", Ct))
            {
                live.StatusCode.ShouldBe(HttpStatusCode.OK);
            }

            using (var refused = await client.PostAsJsonAsync("/orders", Body(), Ct))
            {
                refused.StatusCode.ShouldBe(HttpStatusCode.ServiceUnavailable);
                refused.Headers.RetryAfter.ShouldNotBeNull();
            }

            using var forwarder = TcpForwarder.Start(port, target.Host, target.Port);
            var ready = HttpStatusCode.ServiceUnavailable;
            for (var attempt = 0; attempt < 30 && ready != HttpStatusCode.OK; attempt++)
            {
                using var probe = await client.GetAsync("/health/ready", Ct);
                ready = probe.StatusCode;
                if (ready != HttpStatusCode.OK)
                {
                    await Task.Delay(500, Ct);
                }
            }

            ready.ShouldBe(HttpStatusCode.OK, "the driver must find the server again without a restart");
            using var created = await client.PostAsJsonAsync("/orders", Body(), Ct);
            created.StatusCode.ShouldBe(HttpStatusCode.Created, "the indexes are created on the first call that reaches the store");
        }
        finally
        {
            await MongoTestServer.DropAsync([uri]); // by its name, on the test server
        }
    }

    private static object Body() => new { customerId = Ids.NewCustomer(), lines = new[] { new { sku = "SKU-1", quantity = 1, unitPrice = 1.50m } } };

    /// <summary>Accepts on a loopback port and pipes every connection to the real server, both ways.</summary>
    private sealed class TcpForwarder : IDisposable
    {
        private readonly TcpListener _listener;
        private readonly CancellationTokenSource _stop = new();

        private TcpForwarder(TcpListener listener) => _listener = listener;

        public static TcpForwarder Start(int port, string host, int targetPort)
        {
            var listener = new TcpListener(IPAddress.Loopback, port);
            listener.Start();
            var forwarder = new TcpForwarder(listener);
            _ = forwarder.AcceptAsync(host, targetPort);
            return forwarder;
        }

        public void Dispose()
        {
            _stop.Cancel();
            _listener.Stop();
            _stop.Dispose();
        }

        private async Task AcceptAsync(string host, int port)
        {
            try
            {
                while (!_stop.IsCancellationRequested)
                {
                    var incoming = await _listener.AcceptTcpClientAsync(_stop.Token);
                    _ = PipeAsync(incoming, host, port);
                }
            }
            catch (Exception e) when (e is OperationCanceledException or ObjectDisposedException or SocketException)
            {
                // Stopped.
            }
        }

        private async Task PipeAsync(TcpClient incoming, string host, int port)
        {
            using (incoming)
            using (var outgoing = new TcpClient())
            {
                try
                {
                    await outgoing.ConnectAsync(host, port, _stop.Token);
                    var up = incoming.GetStream().CopyToAsync(outgoing.GetStream(), _stop.Token);
                    var down = outgoing.GetStream().CopyToAsync(incoming.GetStream(), _stop.Token);
                    await Task.WhenAny(up, down);
                }
                catch (Exception e) when (e is OperationCanceledException or IOException or SocketException or ObjectDisposedException)
                {
                    // One side closed or the forwarder stopped: the connection ends.
                }
            }
        }
    }
}
