using System.Net;
using System.Net.Sockets;

namespace OrderService.Integration.Tests.Faults;

/// <summary>
/// A loopback TCP relay between the service and a real database server, for faults the server itself
/// cannot be asked for. It counts the connections it accepts (did the service touch the store?), and
/// it can lose one reply: <see cref="LoseNextReply"/> lets the next request through to the server but
/// never brings its answer back, then drops the connection, so a commit happens that the client never sees.
/// <see cref="CorruptNextReply"/> alters bytes of one reply, so the client's driver misreads it.
/// </summary>
public sealed class TcpProxy : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly string _upstreamHost;
    private readonly int _upstreamPort;
    private readonly CancellationTokenSource _stopping = new();
    private readonly Task _accepting;
    private readonly TimeSpan _replyLossDelay;
    private int _accepted;
    private int _loseNextReply;
    private Corruption? _corruption;

    /// <param name="replyLossDelay">How long a connection whose reply is lost stays open, so the whole request reaches the server and runs.</param>
    public TcpProxy(string upstreamHost, int upstreamPort, TimeSpan? replyLossDelay = null)
    {
        _upstreamHost = upstreamHost;
        _upstreamPort = upstreamPort;
        _replyLossDelay = replyLossDelay ?? TimeSpan.FromMilliseconds(500);
        _listener.Start();
        Port = ((IPEndPoint)_listener.LocalEndpoint).Port;
        _accepting = AcceptAsync();
    }

    public int Port { get; }

    /// <summary>Connections accepted so far: each is a connection attempt of the service to its store.</summary>
    public int Accepted => Volatile.Read(ref _accepted);

    /// <summary>The next bytes any client sends are delivered, but the server's reply to them is not: the connection then drops.</summary>
    public void LoseNextReply() => Volatile.Write(ref _loseNextReply, 1);

    /// <summary>
    /// The next reply bytes that hold <paramref name="find"/> reach the client with it replaced by
    /// <paramref name="replace"/> (as long). The task completes when the client closes that connection.
    /// </summary>
    public Task CorruptNextReply(byte[] find, byte[] replace)
    {
        var corruption = new Corruption(find, replace);
        Volatile.Write(ref _corruption, corruption);
        return corruption.ClientClosed.Task;
    }

    public async ValueTask DisposeAsync()
    {
        await _stopping.CancelAsync();
        _listener.Stop();
        try
        {
            await _accepting;
        }
        catch (OperationCanceledException)
        {
        }
        catch (SocketException)
        {
        }

        _stopping.Dispose();
    }

    private async Task AcceptAsync()
    {
        while (!_stopping.IsCancellationRequested)
        {
            var client = await _listener.AcceptTcpClientAsync(_stopping.Token);
            Interlocked.Increment(ref _accepted);
            _ = RelayAsync(client);
        }
    }

    private async Task RelayAsync(TcpClient client)
    {
        using (client)
        using (var server = new TcpClient())
        {
            try
            {
                await server.ConnectAsync(_upstreamHost, _upstreamPort, _stopping.Token);
            }
            catch (SocketException)
            {
                return; // the store is down: the client sees its connection closed
            }

            var pair = new Pair(client, server);
            using var done = CancellationTokenSource.CreateLinkedTokenSource(_stopping.Token);
            var up = PumpAsync(client.GetStream(), server.GetStream(), pair, upstream: true, done.Token);
            var down = PumpAsync(server.GetStream(), client.GetStream(), pair, upstream: false, done.Token);
            if (await Task.WhenAny(up, down) == up && !_stopping.IsCancellationRequested)
            {
                pair.Corrupted?.ClientClosed.TrySetResult();
            }

            await done.CancelAsync();
        }
    }

    private async Task PumpAsync(NetworkStream from, NetworkStream to, Pair pair, bool upstream, CancellationToken cancellationToken)
    {
        var buffer = new byte[16 * 1024];
        try
        {
            while (true)
            {
                var read = await from.ReadAsync(buffer, cancellationToken);
                if (read == 0)
                {
                    return;
                }

                if (upstream && Interlocked.Exchange(ref _loseNextReply, 0) == 1)
                {
                    // From now on this connection's replies are swallowed; the request still goes through.
                    pair.ReplyLost = true;
                    _ = DropLaterAsync(pair);
                }

                if (!upstream && pair.ReplyLost)
                {
                    continue;
                }

                if (!upstream && Volatile.Read(ref _corruption) is { } corruption
                    && buffer.AsSpan(0, read).IndexOf(corruption.Find) is var at and >= 0
                    && Interlocked.CompareExchange(ref _corruption, null, corruption) == corruption)
                {
                    corruption.Replace.CopyTo(buffer, at);
                    pair.Corrupted = corruption;
                }

                await to.WriteAsync(buffer.AsMemory(0, read), cancellationToken);
            }
        }
        catch (Exception fault) when (fault is IOException or OperationCanceledException or ObjectDisposedException or SocketException)
        {
            // One side went away: the relay ends, and the other side sees the connection close.
        }
    }

    private async Task DropLaterAsync(Pair pair)
    {
        await Task.Delay(_replyLossDelay);
        pair.Client.Client.Close(0);
        pair.Server.Client.Close(0);
    }

    private sealed class Pair(TcpClient client, TcpClient server)
    {
        public TcpClient Client { get; } = client;

        public TcpClient Server { get; } = server;

        public volatile bool ReplyLost;

        public volatile Corruption? Corrupted;
    }

    private sealed record Corruption(byte[] Find, byte[] Replace)
    {
        public TaskCompletionSource ClientClosed { get; } = new(TaskCreationOptions.RunContinuationsAsynchronously);
    }
}
