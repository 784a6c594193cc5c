using System.Buffers.Binary;
using System.Buffers.Text;
using OrderService.Data;

namespace OrderService.Apis;

/// <summary>
/// The listing's opaque cursor: base64url of a format version, the last order's created-at (UTC ticks,
/// big-endian) and its id in RFC 9562 byte order.
/// </summary>
public static class PageCursor
{
    /// <summary>The length of every cursor this version writes (25 bytes in base64url).</summary>
    public const int Length = 34;

    private const byte Version = 1;
    private const int ByteLength = 25;

    public static string Encode(OrderPosition position)
    {
        Span<byte> bytes = stackalloc byte[ByteLength];
        bytes[0] = Version;
        BinaryPrimitives.WriteInt64BigEndian(bytes[1..], position.CreatedAt.UtcTicks);
        position.Id.TryWriteBytes(bytes[9..], bigEndian: true, out _);
        return Base64Url.EncodeToString(bytes);
    }

    /// <summary>The position a cursor names, or false when it is not one this service wrote (wrong length, alphabet,
    /// version or value).</summary>
    public static bool TryDecode(string text, out OrderPosition position)
    {
        position = default;
        Span<byte> bytes = stackalloc byte[ByteLength];
        if (text.Length != Length || !Base64Url.TryDecodeFromChars(text, bytes, out var written)
            || written != ByteLength || bytes[0] != Version)
        {
            return false;
        }

        var ticks = BinaryPrimitives.ReadInt64BigEndian(bytes[1..]);
        if (ticks < DateTimeOffset.MinValue.UtcTicks || ticks > DateTimeOffset.MaxValue.UtcTicks || ticks % 10 != 0)
        {
            return false;
        }

        position = new OrderPosition(new DateTimeOffset(ticks, TimeSpan.Zero), new Guid(bytes[9..], bigEndian: true));
        return true;
    }
}
