using System.Buffers;
using System.Security.Cryptography;
using System.Text.Json;
using OrderService.Data.Orders;

namespace OrderService.Validation;

/// <summary>
/// The Idempotency-Key request hash, over a canonical form, so formatting never makes a retry look new.
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

    /// <summary>A transition's hash: order id, action, event data; not If-Match, which a replay skips.</summary>
    public static string OfTransition(Guid orderId, OrderAction action, OrderEventData data)
    {
        var buffer = new ArrayBufferWriter<byte>(256);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            writer.WriteString("step", ActionName(action));
            writer.WriteString("orderId", orderId);
            WriteIfSet(writer, "paymentReference", data.PaymentReference);
            WriteIfSet(writer, "carrier", data.Carrier);
            WriteIfSet(writer, "trackingNumber", data.TrackingNumber);
            WriteIfSet(writer, "reason", data.Reason);
            writer.WriteEndObject();
        }

        return Convert.ToHexStringLower(SHA256.HashData(buffer.WrittenSpan));
    }

    private static void WriteIfSet(Utf8JsonWriter writer, string name, string? value)
    {
        if (value is not null)
        {
            writer.WriteString(name, value);
        }
    }

    private static string ActionName(OrderAction action) => action switch
    {
        OrderAction.Pay => "pay",
        OrderAction.Ship => "ship",
        OrderAction.Complete => "complete",
        OrderAction.Cancel => "cancel",
        _ => throw new ArgumentOutOfRangeException(nameof(action), action, null),
    };
}
