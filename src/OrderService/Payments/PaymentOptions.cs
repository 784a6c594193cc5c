using System.ComponentModel;
using System.ComponentModel.DataAnnotations;

namespace OrderService.Payments;

/// <summary>The <c>Payments</c> section.</summary>
[Description("A declined-payment probe for the shoot-out's dirty-read measurement; off by default.")]
public sealed class PaymentOptions
{
    public const string SectionName = "Payments";

    [Description("A prefix of paymentReference that the simulated gateway declines after the write and before the " +
        "commit (402, rolled back): the shoot-out's dirty-read probe. Unset or empty: off.")]
    [MaxLength(128)]
    public string? DeclineReferencePrefix { get; set; }

    [Description("How long a declined payment holds its uncommitted write before rolling it back.")]
    [Range(0, 60_000)]
    public int AuthorizationDelayMilliseconds { get; set; }
}
