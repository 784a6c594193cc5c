using System.Buffers.Binary;
using System.Text;
using Npgsql;
using OrderService.Integration.Tests.Conformance.Stores;
using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Faults;

/// <summary>A customer id as a text column carries it (a 4-byte length, then UTF-8), ending in a non-UTF-8 byte.</summary>
[Trait(StoreTraits.Store, StoreTraits.PostgreSql)]
public sealed class PostgresDriverFaultTests(PostgresRelationalStore store)
    : DriverFaultSuite<PostgresRelationalStore>(store)
{
    protected override (string Host, int Port) Server(string connectionString)
    {
        var server = new NpgsqlConnectionStringBuilder(connectionString);
        return (server.Host!, server.Port);
    }

    protected override string Relayed(string connectionString, int port) =>
        new NpgsqlConnectionStringBuilder(connectionString)
        {
            Host = "127.0.0.1",
            Port = port,
            SslMode = SslMode.Disable,
            ConnectionIdleLifetime = 300,
            ConnectionPruningInterval = 10,
        }.ConnectionString;

    protected override (byte[] Sent, byte[] Corrupted) OnTheWire(OrderDto stored)
    {
        var text = Encoding.UTF8.GetBytes(stored.CustomerId);
        var sent = new byte[4 + text.Length];
        BinaryPrimitives.WriteInt32BigEndian(sent, text.Length);
        text.CopyTo(sent, 4);
        var corrupted = (byte[])sent.Clone();
        corrupted[^1] = 0xFF;
        return (sent, corrupted);
    }
}
