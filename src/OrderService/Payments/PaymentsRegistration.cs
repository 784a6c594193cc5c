using OrderService.Data.Payments;

namespace OrderService.Payments;

public static class PaymentsRegistration
{
    /// <summary>The payment gateway the stores ask before a pay commits.</summary>
    public static WebApplicationBuilder AddPayments(this WebApplicationBuilder builder)
    {
        builder.Services.AddOptions<PaymentOptions>().Bind(builder.Configuration.GetSection(PaymentOptions.SectionName))
            .ValidateDataAnnotations().ValidateOnStart();
        builder.Services.AddSingleton<SimulatedPaymentGateway>();
        builder.Services.AddSingleton<IPaymentAuthorizer>(sp => sp.GetRequiredService<SimulatedPaymentGateway>());
        return builder;
    }
}
