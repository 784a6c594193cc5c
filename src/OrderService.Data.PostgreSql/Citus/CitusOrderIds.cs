using System.Security.Cryptography;
using System.Text;

namespace OrderService.Data.PostgreSql.Citus;

/// <summary>
/// A keyed create's order id on Citus: a hash of the key, so a retry lands on its first id and shard.
/// </summary>
public static class CitusOrderIds
{
    private static readonly byte[] Namespace = "OrderService create key:"u8.ToArray();

    public static Guid ForCreateKey(string key)
    {
        Span<byte> hash = stackalloc byte[SHA256.HashSizeInBytes];
        SHA256.HashData([.. Namespace, .. Encoding.UTF8.GetBytes(key)], hash);
        var bytes = hash[..16];
        bytes[6] = (byte)(0x80 | (bytes[6] & 0x0F));
        bytes[8] = (byte)(0x80 | (bytes[8] & 0x3F));
        return new Guid(bytes, bigEndian: true);
    }
}
