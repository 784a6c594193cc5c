using System.Buffers;
using System.Text;
using System.Text.Json;
using MongoDB.Bson;

namespace OrderService.Data.MongoDb;

/// <summary>The current row of a MongoDB JSON stream.</summary>
internal sealed class MongoOrderJsonRow : OrderJsonRow
{
    private static readonly UTF8Encoding StrictUtf8 =
        new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    private ReadOnlyMemory<byte> _document;
    private byte[]? _copy;

    public override Guid Id => OrderBsonJson.ReadId(_document.Span);

    public override bool BelongsTo(string customerId)
    {
        ArgumentNullException.ThrowIfNull(customerId);
        var length = StrictUtf8.GetMaxByteCount(customerId.Length);
        var rented = length > 256 ? ArrayPool<byte>.Shared.Rent(length) : null;
        try
        {
            Span<byte> utf8 = rented ?? stackalloc byte[256];
            int written;
            try
            {
                written = StrictUtf8.GetBytes(customerId, utf8);
            }
            catch (EncoderFallbackException)
            {
                return false; // a lone surrogate: no stored (valid UTF-8) customer id equals it
            }

            return OrderBsonJson.HasCustomer(_document.Span, utf8[..written]);
        }
        finally
        {
            if (rented is not null)
            {
                ArrayPool<byte>.Shared.Return(rented);
            }
        }
    }

    public override void WriteTo(Utf8JsonWriter writer) => OrderBsonJson.WriteOrder(_document.Span, writer);

    /// <summary>Points the row at <paramref name="document"/>.</summary>
    public void Show(RawBsonDocument document)
    {
        var slice = document.Slice;
        var length = slice.Length;
        var backing = slice.AccessBackingBytes(0);
        if (backing.Count >= length)
        {
            _document = backing.AsMemory(0, length);
            return;
        }

        if (_copy is null || _copy.Length < length)
        {
            _copy = new byte[Math.Max(length, (_copy?.Length ?? 0) * 2)];
        }

        slice.GetBytes(0, _copy, 0, length);
        _document = _copy.AsMemory(0, length);
    }
}
