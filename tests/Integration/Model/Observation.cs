using System.Globalization;
using System.Text;

namespace OrderService.Integration.Tests.Model;

/// <summary>
/// What one command answered, in a form the model, the HTTP run and the port run all produce: the outcome
/// ("201", "200 replayed", "409 stale", "422", ...) and, for a success, the order it answered (status,
/// version and its events with sequence numbers, types and event data). Timestamps and ids are left out:
/// they differ between runs by design.
/// </summary>
public sealed record Observation(string Outcome, string? Order = null)
{
    public override string ToString() => Order is null ? Outcome : $"{Outcome} {Order}";

    public static string DescribeOrder(string status, int version, IEnumerable<string> events) =>
        $"{status} v{version.ToString(CultureInfo.InvariantCulture)} [{string.Join(", ", events)}]";

    /// <summary>"2 Paid ref=P-1": the sequence, the type and whatever data the step carried.</summary>
    public static string DescribeEvent(int sequence, string type, string? paymentReference, string? carrier, string? trackingNumber, string? reason)
    {
        var text = new StringBuilder().Append(sequence.ToString(CultureInfo.InvariantCulture)).Append(' ').Append(type);
        Append(text, "ref", paymentReference);
        Append(text, "carrier", carrier);
        Append(text, "tracking", trackingNumber);
        Append(text, "reason", reason);
        return text.ToString();
    }

    private static void Append(StringBuilder text, string name, string? value)
    {
        if (value is not null)
        {
            text.Append(' ').Append(name).Append('=').Append(value);
        }
    }
}

/// <summary>The fixed request content behind the variants a command names, shared by the model and both runners.</summary>
public static class Variants
{
    public static string? PaymentReference(int data) => data == 0 ? null : $"P-{data}";

    public static string Carrier => "DHL";

    public static string TrackingNumber(int data) => $"T-{data}";

    public static string? Reason(int data) => data == 0 ? null : $"R-{data}";

    /// <summary>The version a stale If-Match names: one before the current one, or one after at version 1.</summary>
    public static int StaleVersion(int current) => current > 1 ? current - 1 : current + 1;

    /// <summary>The If-Match a runner sends for an order it believes is at <paramref name="current"/> (null: no header).</summary>
    public static string? IfMatch(IfMatchKind kind, int current) => kind switch
    {
        IfMatchKind.Right => $"\"{current.ToString(CultureInfo.InvariantCulture)}\"",
        IfMatchKind.Stale => $"\"{StaleVersion(current).ToString(CultureInfo.InvariantCulture)}\"",
        IfMatchKind.Star => "*",
        _ => null,
    };

    /// <summary>The expected version a runner passes to the port (If-Match "*" and no header both mean any).</summary>
    public static int? ExpectedVersion(IfMatchKind kind, int current) => kind switch
    {
        IfMatchKind.Right => current,
        IfMatchKind.Stale => StaleVersion(current),
        _ => null,
    };
}
