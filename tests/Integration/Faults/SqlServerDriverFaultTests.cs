using System.Buffers.Binary;
using System.Globalization;
using Microsoft.Data.SqlClient;
using OrderService.Integration.Tests.Conformance.Stores;
using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Faults;

/// <summary>
/// created_at, a datetimeoffset(6), as TDS carries it: a length of 10, the time of day in microseconds (5 bytes) and
/// the day since 0001-01-01 (3 bytes), both UTC, then the offset in minutes (2 bytes), which becomes 541 hours.
/// </summary>
[Trait(StoreTraits.Store, StoreTraits.SqlServer)]
public sealed class SqlServerDriverFaultTests(SqlServerRelationalStore store)
    : DriverFaultSuite<SqlServerRelationalStore>(store)
{
    protected override (string Host, int Port) Server(string connectionString)
    {
        var source = new SqlConnectionStringBuilder(connectionString).DataSource;
        source = source.StartsWith("tcp:", StringComparison.OrdinalIgnoreCase) ? source[4..] : source;
        var comma = source.LastIndexOf(',');
        return comma < 0
            ? (source, 1433)
            : (source[..comma], int.Parse(source[(comma + 1)..], CultureInfo.InvariantCulture));
    }

    protected override string Relayed(string connectionString, int port) =>
        new SqlConnectionStringBuilder(connectionString)
        {
            DataSource = $"127.0.0.1,{port}",
            Encrypt = SqlConnectionEncryptOption.Optional,
        }.ConnectionString;

    protected override (byte[] Sent, byte[] Corrupted) OnTheWire(OrderDto stored)
    {
        var ticks = stored.CreatedAt.UtcTicks;
        var sent = new byte[11];
        sent[0] = 10;
        BinaryPrimitives.WriteInt64LittleEndian(sent.AsSpan(1, 8), ticks % TimeSpan.TicksPerDay / 10);
        BinaryPrimitives.WriteInt32LittleEndian(sent.AsSpan(6, 4), (int)(ticks / TimeSpan.TicksPerDay));
        sent[9] = 0;
        sent[10] = 0;
        var corrupted = (byte[])sent.Clone();
        corrupted[10] = 0x7F;
        return (sent, corrupted);
    }
}
