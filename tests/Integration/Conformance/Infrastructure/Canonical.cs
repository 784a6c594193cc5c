using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;
using OrderService.Data.Orders;
using Shouldly;

namespace OrderService.Integration.Tests.Conformance.Infrastructure;

/// <summary>
/// Compares domain orders by value, whatever collection types or decimal scales a store hands back:
/// both sides become canonical JSON (decimals without trailing zeros, instants in UTC), and the
/// failure message shows both documents.
/// </summary>
public static class Canonical
{
    private static readonly JsonSerializerOptions Options = new(JsonSerializerDefaults.Web)
    {
        Converters = { new JsonStringEnumConverter(), new NormalizedDecimal(), new UtcInstant() },
    };

    public static string Of(object? value) => JsonSerializer.Serialize(value, Options);

    public static void ShouldBeSameOrderAs(this Order? actual, Order expected)
    {
        actual.ShouldNotBeNull($"order {expected.Id} should exist");
        Of(actual).ShouldBe(Of(expected));
    }

    private sealed class NormalizedDecimal : JsonConverter<decimal>
    {
        public override decimal Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) => reader.GetDecimal();

        // Dividing by 1.000…0 drops trailing zeros: 5.00m and 5m both write as 5.
        public override void Write(Utf8JsonWriter writer, decimal value, JsonSerializerOptions options) =>
            writer.WriteRawValue((value / 1.0000000000000000000000000000m).ToString(CultureInfo.InvariantCulture));
    }

    private sealed class UtcInstant : JsonConverter<DateTimeOffset>
    {
        public override DateTimeOffset Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options) => reader.GetDateTimeOffset();

        public override void Write(Utf8JsonWriter writer, DateTimeOffset value, JsonSerializerOptions options) =>
            writer.WriteStringValue(value.UtcDateTime.ToString("yyyy-MM-ddTHH:mm:ss.fffffffZ", CultureInfo.InvariantCulture));
    }
}
