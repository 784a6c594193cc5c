using System.ComponentModel.DataAnnotations;

namespace OrderService.Payments;

/// <summary>
/// The <c>Payments</c> section: a declined-payment probe for the shoot-out's dirty-read measurement.
/// Off by default. When on, a pay whose paymentReference starts with <see cref="DeclineReferencePrefix"/>
/// writes, waits <see cref="AuthorizationDelayMilliseconds"/> inside the transaction, then rolls back
/// (402): concurrent readers that saw "Paid" meanwhile read something that never committed.
/// </summary>
public sealed class PaymentOptions
{
    public const string SectionName = "Payments";

    /// <summary>Payment references with this prefix are declined; null or empty disables the probe.</summary>
    [MaxLength(128)]
    public string? DeclineReferencePrefix { get; set; }

    /// <summary>How long a declined payment holds its uncommitted write before rolling it back.</summary>
    [Range(0, 60_000)]
    public int AuthorizationDelayMilliseconds { get; set; }
}
