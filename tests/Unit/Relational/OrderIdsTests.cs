using System.Text.Json;
using OrderService.Data.Relational;
using OrderService.Data.Sqlite;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Relational;

public sealed class OrderIdsTests
{
    [Fact]
    public void Ids_are_sorted_exactly_as_their_canonical_texts_sort_ordinally()
    {
        var random = new Random(12);
        var ids = Enumerable.Range(0, 500).Select(_ => RandomId(random)).ToList();

        // Ids that differ in one byte only, at each position, catch a byte compared out of text order.
        var start = RandomId(random);
        for (var position = 0; position < 16; position++)
        {
            var bytes = start.ToByteArray(bigEndian: true);
            bytes[position] ^= 0x81;
            ids.Add(new Guid(bytes, bigEndian: true));
        }

        OrderIds.DistinctInTextOrder(ids).ShouldBe(ids.OrderBy(id => id.ToString(), StringComparer.Ordinal).ToArray());
    }

    [Fact]
    public void A_repeated_id_is_kept_once()
    {
        var a = Guid.CreateVersion7();
        var b = Guid.CreateVersion7();

        OrderIds.DistinctInTextOrder([b, a, b, a, a]).ShouldBe(new[] { a, b }.OrderBy(id => id.ToString(), StringComparer.Ordinal).ToArray());
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(3)]
    public void The_sqlite_id_set_is_a_json_array_of_the_canonical_texts(int count)
    {
        var ids = Enumerable.Range(0, count).Select(_ => Guid.NewGuid()).ToArray();

        var json = (string)new SqliteDialect().IdSet(ids);

        JsonSerializer.Deserialize<string[]>(json).ShouldBe(ids.Select(id => id.ToString("D")).ToArray());
    }

    private static Guid RandomId(Random random)
    {
        Span<byte> bytes = stackalloc byte[16];
        random.NextBytes(bytes);
        return new Guid(bytes);
    }
}
