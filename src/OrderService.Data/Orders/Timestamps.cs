namespace OrderService.Data.Orders;

/// <summary>
/// Every store keeps timestamps to the microsecond (PostgreSQL's precision), so the service
/// truncates before it writes: what a client is told is exactly what any store reads back.
/// </summary>
public static class Timestamps
{
    public static DateTimeOffset Now(TimeProvider clock) => Truncate(clock.GetUtcNow());

    public static DateTimeOffset Truncate(DateTimeOffset value)
    {
        var utc = value.ToUniversalTime();
        return new DateTimeOffset(utc.Ticks - (utc.Ticks % 10), TimeSpan.Zero);
    }
}
