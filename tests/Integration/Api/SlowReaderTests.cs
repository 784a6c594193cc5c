using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using System.Net.Sockets;
using Npgsql;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Servers;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Api;

/// <summary>
/// Slow readers cannot pin the pool: as many clients as the pool has connections read a large streamed batch at a
/// trickle through a small receive buffer. Each response is cut off at <c>RequestTimeouts:StreamSeconds</c> having
/// sent a fraction of its body, and other requests are served meanwhile (retrying 503s as a client does). Without the
/// deadline the readers would hold every connection for the hours the body takes at their pace.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class SlowReaderTests(PostgresServer server)
{
    private const int PoolSize = 6;
    private const int StreamSeconds = 10;
    private const int Orders = 600;
    private const int ReadBytes = 512;
    private static readonly TimeSpan ReadPause = TimeSpan.FromMilliseconds(250);

    // Generous: the deadline is seconds; a reader that was not cut off would need hours.
    private static readonly TimeSpan EndBound = TimeSpan.FromSeconds(90);

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Slow_readers_are_cut_off_at_the_stream_deadline_while_other_requests_are_served()
    {
        var postgres = await server.GetAsync();
        var connection = new NpgsqlConnectionStringBuilder(await postgres.CreateDatabaseAsync("slow-readers", Ct))
        {
            MaxPoolSize = PoolSize,
        };
        var directory = Directory.CreateTempSubdirectory("orders-slow-readers-").FullName;
        try
        {
            await using var service = await OrderServiceProcess.StartAsync(directory, new Dictionary<string, string>
            {
                ["Store:Provider"] = "PostgreSql",
                ["ConnectionStrings:Orders"] = connection.ConnectionString,
                ["RequestTimeouts:StreamSeconds"] = StreamSeconds.ToString(CultureInfo.InvariantCulture),
            }, Ct);
            await ReadersAreCutOffAndOthersServedAsync(service.Client);
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    private static async Task ReadersAreCutOffAndOthersServedAsync(HttpClient client)
    {
        var api = new OrderApi(client, Ct);
        var batch = new { ids = await CreateLargeOrdersAsync(api) };

        using var trickle = new HttpClient(new SocketsHttpHandler { ConnectCallback = SmallReceiveBufferAsync })
        {
            BaseAddress = client.BaseAddress,
            Timeout = Timeout.InfiniteTimeSpan,
        };
        var started = Enumerable.Range(0, PoolSize)
            .Select(_ => new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).ToList();
        var readers = started.Select(s => ReadAtATrickleAsync(trickle, batch, s)).ToList();
        await Task.WhenAll(started.Select(s => s.Task)).WaitAsync(EndBound, Ct);

        // Every connection of the pool is now some reader's: the service still answers, at worst after 503s.
        var (customer, key) = (Ids.NewCustomer(), Ids.NewKey());
        using var created = await OrderApi.RetryUnavailableAsync(
            () => api.CreateAsync(customer, idempotencyKey: key), Ct);
        var order = await OrderApi.ReadOrderAsync(created, HttpStatusCode.Created);
        using (var read = await OrderApi.RetryUnavailableAsync(() => api.GetAsync($"/orders/{order.Id}"), Ct))
        {
            await OrderApi.ShouldHaveStatusAsync(read, HttpStatusCode.OK);
        }

        foreach (var (status, cutOff, elapsed) in await Task.WhenAll(readers).WaitAsync(EndBound, Ct))
        {
            status.ShouldBe(HttpStatusCode.OK);
            cutOff.ShouldBeTrue("the response broke off; it did not end as a whole body");
            elapsed.ShouldBeGreaterThanOrEqualTo(TimeSpan.FromSeconds(StreamSeconds - 1), "it ran until its deadline");
        }
    }

    /// <summary>Orders of 100 long lines each, so that the batch's body is megabytes: more than the socket buffers
    /// between the service and a reader hold.</summary>
    private static async Task<Guid[]> CreateLargeOrdersAsync(OrderApi api)
    {
        var lines = Enumerable.Range(0, 100)
            .Select(i => new OrderLineDto($"SKU-{i:D3}-".PadRight(64, 'x'), 1_000, 999_999.99m)).ToArray();
        var ids = new Guid[Orders];
        await Parallel.ForAsync(0, Orders, new ParallelOptions { MaxDegreeOfParallelism = 4, CancellationToken = Ct },
            async (i, _) => ids[i] = (await api.CreateOrderAsync(Ids.NewCustomer(), lines)).Id);
        return ids;
    }

    /// <summary>Reads <see cref="ReadBytes"/> at a time with a pause between, until the body ends or breaks off;
    /// <paramref name="started"/> is set once the answer has begun (its rows are being read).</summary>
    private static async Task<(HttpStatusCode Status, bool CutOff, TimeSpan Elapsed)> ReadAtATrickleAsync(
        HttpClient client, object batch, TaskCompletionSource started)
    {
        var clock = Stopwatch.StartNew();
        using var request = new HttpRequestMessage(HttpMethod.Post, "/orders/batch")
        {
            Content = JsonContent.Create(batch),
        };
        using var response = await client.SendAsync(request, HttpCompletionOption.ResponseHeadersRead, Ct);
        started.SetResult();
        await using var body = await response.Content.ReadAsStreamAsync(Ct);
        var buffer = new byte[ReadBytes];
        try
        {
            while (await body.ReadAsync(buffer, Ct) > 0)
            {
                await Task.Delay(ReadPause, Ct);
            }
        }
        catch (IOException)
        {
            return (response.StatusCode, true, clock.Elapsed);
        }

        return (response.StatusCode, false, clock.Elapsed);
    }

    private static async ValueTask<Stream> SmallReceiveBufferAsync(SocketsHttpConnectionContext context,
        CancellationToken cancellationToken)
    {
        var socket = new Socket(SocketType.Stream, ProtocolType.Tcp) { ReceiveBufferSize = 4096, NoDelay = true };
        try
        {
            await socket.ConnectAsync(context.DnsEndPoint, cancellationToken);
            return new NetworkStream(socket, ownsSocket: true);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }
}
