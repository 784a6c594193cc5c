using System.Net;
using System.Net.Sockets;

namespace OrderService.Testing;

/// <summary>
/// A loopback TCP port nothing listens on: bound once by the OS (so it was free) and released again. Another
/// process may take it before it is used, which is rare enough for tests.
/// </summary>
public static class FreePort
{
    public static int Loopback()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
