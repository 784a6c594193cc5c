using System.Globalization;

namespace OrderService.Data.Orders;

/// <summary>Every store keeps timestamps to the microsecond, so the service truncates before it writes.</summary>
public static class Timestamps
{
    /// <summary>The one text form of a timestamp: UTC, microseconds, always 27 characters, sortable as text.</summary>
    public const string Format = "yyyy-MM-dd'T'HH:mm:ss.ffffff'Z'";

    public const int FormatLength = 27;

    public static DateTimeOffset Now(TimeProvider clock) => Truncate(clock.GetUtcNow());

    public static string ToText(DateTimeOffset value) =>
        value.UtcDateTime.ToString(Format, CultureInfo.InvariantCulture);

    public static DateTimeOffset Truncate(DateTimeOffset value)
    {
        var utc = value.ToUniversalTime();
        return new DateTimeOffset(utc.Ticks - (utc.Ticks % 10), TimeSpan.Zero);
    }
}
