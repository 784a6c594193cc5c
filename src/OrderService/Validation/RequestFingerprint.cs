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
    public static string Of(string customerId, IReadOnlyList<OrderLine> lines) =>
        Hash((customerId, lines), static (writer, request) =>
        {
            writer.WriteString("customerId", request.customerId);
            writer.WriteStartArray("lines");
            foreach (var line in request.lines)
            {
                writer.WriteStartObject();
                writer.WriteString("sku", line.Sku);
                writer.WriteNumber("quantity", line.Quantity);

                // Whole cents: validation allows at most two decimals, so this is exact.
                writer.WriteNumber("unitPriceCents", (long)(line.UnitPrice * 100));
                writer.WriteEndObject();
            }

            writer.WriteEndArray();
        });

    /// <summary>A transition's hash: order id, action, event data; not If-Match, which a replay skips.</summary>
    public static string OfTransition(Guid orderId, OrderAction action, OrderEventData data) =>
        Hash((orderId, action, data), static (writer, step) =>
        {
            writer.WriteString("step", step.action.ToString().ToLowerInvariant());
            writer.WriteString("orderId", step.orderId);
            WriteIfSet(writer, "paymentReference", step.data.PaymentReference);
            WriteIfSet(writer, "carrier", step.data.Carrier);
            WriteIfSet(writer, "trackingNumber", step.data.TrackingNumber);
            WriteIfSet(writer, "reason", step.data.Reason);
        });

    private static string Hash<T>(T state, Action<Utf8JsonWriter, T> write)
    {
        var buffer = new ArrayBufferWriter<byte>(256);
        using (var writer = new Utf8JsonWriter(buffer))
        {
            writer.WriteStartObject();
            write(writer, state);
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
}
