using System.Net;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using OrderService.Testing;

namespace OrderService.Load.Tests.Shootout;

/// <summary>The service on Kestrel at a free loopback port, on a SQLite file: what <c>--target</c> loads.</summary>
internal sealed class KestrelService : IAsyncDisposable
{
    private readonly WebApplicationFactory<Program> _factory;

    private KestrelService(WebApplicationFactory<Program> factory, Uri address)
    {
        _factory = factory;
        Address = address;
    }

    public Uri Address { get; }

    public static KestrelService Start(string database)
    {
        var port = FreePort.Loopback();
        var factory = new WebApplicationFactory<Program>().WithWebHostBuilder(b =>
            b.UseEnvironment("Testing").UseSetting("Authorization:Mode", "None")
                .UseSetting("ConnectionStrings:Orders", $"Data Source={database}")
                .UseSetting(OrderServiceProcess.RateLimiterOff.Key, OrderServiceProcess.RateLimiterOff.Value));
        factory.UseKestrel(kestrel => kestrel.Listen(IPAddress.Loopback, port));
        factory.StartServer();
        return new KestrelService(factory, new Uri($"http://127.0.0.1:{port}/"));
    }

    public ValueTask DisposeAsync() => _factory.DisposeAsync();
}
