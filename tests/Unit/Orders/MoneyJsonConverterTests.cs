using System.Text;
using System.Text.Json;
using OrderService.Data.Orders;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Orders;

/// <summary>Money as the API reads it: a JSON number, never silently a different amount.</summary>
public sealed class MoneyJsonConverterTests
{
    [Theory]
    [InlineData("0", "0")]
    [InlineData("0.00", "0")]
    [InlineData("0e5", "0")]
    [InlineData("-0.0", "0")]
    [InlineData("12.5", "12.5")]
    [InlineData("1.25e1", "12.5")]
    public void A_number_reads_as_its_amount(string json, string expected) =>
        Read(json).ShouldBe(decimal.Parse(expected, System.Globalization.CultureInfo.InvariantCulture));

    [Theory]
    [InlineData("1e-400")]   // below decimal's range: decimal parsing would give 0
    [InlineData("0.5e-300")]
    [InlineData("1e400")]    // above it
    [InlineData("\"12.50\"")] // a string
    public void A_number_decimal_cannot_hold_or_a_string_is_rejected(string json) =>
        Should.Throw<JsonException>(() => Read(json));

    private static decimal Read(string json)
    {
        var reader = new Utf8JsonReader(Encoding.UTF8.GetBytes(json));
        reader.Read();
        return new MoneyJsonConverter().Read(ref reader, typeof(decimal), new JsonSerializerOptions());
    }
}
