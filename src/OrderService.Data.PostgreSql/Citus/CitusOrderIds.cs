using System.Security.Cryptography;
using System.Text;

namespace OrderService.Data.PostgreSql.Citus;

/// <summary>
/// The order id of a keyed create on Citus. A unique key there must hold the distribution column (the order id), so
/// a retried create must arrive with the id of its first attempt: the id is a hash of the Idempotency-Key, and one
/// key lands on one shard, meets its own key row and makes one order. A UUID version 8 (RFC 9562: custom), so it
/// can never equal a time-ordered version 7 id of an unkeyed create.
/// </summary>
public static class CitusOrderIds
{
    private static readonly byte[] Namespace = "OrderService create key:"u8.ToArray();

    public static Guid ForCreateKey(string key)
    {
        var text = Encoding.UTF8.GetBytes(key);
        var input = new byte[Namespace.Length + text.Length];
        Namespace.CopyTo(input, 0);
        text.CopyTo(input, Namespace.Length);
        Span<byte> hash = stackalloc byte[SHA256.HashSizeInBytes];
        SHA256.HashData(input, hash);
        var bytes = hash[..16];
        bytes[6] = (byte)(0x80 | (bytes[6] & 0x0F));
        bytes[8] = (byte)(0x80 | (bytes[8] & 0x3F));
        return new Guid(bytes, bigEndian: true);
    }
}
