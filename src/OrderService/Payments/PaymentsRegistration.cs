using OrderService.Data.Configuration;

namespace OrderService.Payments;

public static class PaymentsRegistration
{
    /// <summary>The declined-payment probe (Payments:*), off by default.</summary>
    public static WebApplicationBuilder AddPayments(this WebApplicationBuilder builder)
    {
        builder.Services.AddSettings<PaymentOptions>(builder.Configuration, PaymentOptions.SectionName);
        builder.Services.AddSingleton<PaymentAuthorizer>();
        return builder;
    }
}
