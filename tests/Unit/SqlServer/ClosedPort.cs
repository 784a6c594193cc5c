using System.Net;
using System.Net.Sockets;

namespace OrderService.Unit.Tests.SqlServer;

/// <summary>A loopback port nothing listens on: bound once by the OS (so it is free) and released again.</summary>
internal static class ClosedPort
{
    public static int Find()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var port = ((IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
    }

    public static string ConnectionString(int connectTimeoutSeconds = 1) =>
        $"Server=127.0.0.1,{Find()};Database=orders;User Id=sa;Password=unused;TrustServerCertificate=true;Connect Timeout={connectTimeoutSeconds}";
}
