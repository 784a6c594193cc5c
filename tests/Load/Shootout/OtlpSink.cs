using System.Net;
using OrderService.Testing;

namespace OrderService.Load.Shootout;

/// <summary>
/// A local endpoint that accepts OTLP/HTTP exports (traces, metrics, logs) and drops them, answering 200
/// with an empty protobuf message (a valid, empty Export*ServiceResponse). With it the service pays the
/// whole cost of telemetry (spans recorded, batched, serialized and sent) without a collector in the run.
/// </summary>
public sealed class OtlpSink : IAsyncDisposable
{
    private readonly HttpListener _listener = new();
    private readonly CancellationTokenSource _stopping = new();
    private readonly Task _serving;
    private long _exports;
    private long _bytes;

    private OtlpSink(int port)
    {
        Endpoint = $"http://127.0.0.1:{port}";
        _listener.Prefixes.Add(Endpoint + "/");
        _listener.Start();
        _serving = ServeAsync();
    }

    /// <summary>The value for OTEL_EXPORTER_OTLP_ENDPOINT (with OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf).</summary>
    public string Endpoint { get; }

    public long Exports => Interlocked.Read(ref _exports);

    public long Bytes => Interlocked.Read(ref _bytes);

    public static OtlpSink Start() => new(FreePort.Loopback());

    public async ValueTask DisposeAsync()
    {
        await _stopping.CancelAsync().ConfigureAwait(false);
        _listener.Stop();
        try
        {
            await _serving.ConfigureAwait(false);
        }
        catch (Exception exception) when (exception is HttpListenerException or ObjectDisposedException or OperationCanceledException)
        {
            // Stopping the listener ends the pending accept.
        }

        _listener.Close();
        _stopping.Dispose();
    }

    private async Task ServeAsync()
    {
        while (!_stopping.IsCancellationRequested)
        {
            var context = await _listener.GetContextAsync().ConfigureAwait(false);
            _ = Task.Run(() => DropAsync(context));
        }
    }

    private async Task DropAsync(HttpListenerContext context)
    {
        try
        {
            var buffer = new byte[16 * 1024];
            int read;
            while ((read = await context.Request.InputStream.ReadAsync(buffer).ConfigureAwait(false)) > 0)
            {
                Interlocked.Add(ref _bytes, read);
            }

            Interlocked.Increment(ref _exports);
            context.Response.StatusCode = 200;
            context.Response.ContentType = "application/x-protobuf";
            context.Response.ContentLength64 = 0;
        }
        finally
        {
            context.Response.Close();
        }
    }
}
