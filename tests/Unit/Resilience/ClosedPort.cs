using OrderService.Testing;

namespace OrderService.Unit.Tests.Resilience;

/// <summary>A SQL Server that is down: a loopback port nothing listens on.</summary>
internal static class ClosedPort
{
    public static string ConnectionString(int connectTimeoutSeconds = 1) =>
        $"Server=127.0.0.1,{FreePort.Loopback()};Database=orders;User Id=sa;Password=unused;TrustServerCertificate=true;Connect Timeout={connectTimeoutSeconds}";
}
