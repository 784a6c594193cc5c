using System.Buffers;
using System.Security.Cryptography;
using System.Text.Json;
using OrderService.Data.Orders;

namespace OrderService.Validation;

/// <summary>
/// The Idempotency-Key request hash: SHA-256 (hex) of a canonical JSON form of the validated request,
/// so that formatting, property order, case of property names and "10.5" versus "10.50" do not make
/// a true retry look like a different request.
/// </summary>
public static class RequestFingerprint
{
    public static string Of(string customerId, IReadOnlyList<OrderLine> lines)
    {
        var buffer = new ArrayBufferWriter<byte>(256);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            writer.WriteString("customerId", customerId);
            writer.WriteStartArray("lines");
            foreach (var line in lines)
            {
                writer.WriteStartObject();
                writer.WriteString("sku", line.Sku);
                writer.WriteNumber("quantity", line.Quantity);

                // Whole cents: validation allows at most two decimals, so this is exact.
                writer.WriteNumber("unitPriceCents", (long)(line.UnitPrice * 100));
                writer.WriteEndObject();
            }

            writer.WriteEndArray();
            writer.WriteEndObject();
        }

        return Convert.ToHexStringLower(SHA256.HashData(buffer.WrittenSpan));
    }
}
