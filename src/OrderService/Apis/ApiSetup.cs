using OrderService.Authorization;
using OrderService.Contracts;
using OrderService.Problems;

namespace OrderService.Apis;

public static class ApiSetup
{
    public static WebApplicationBuilder AddOrdersApi(this WebApplicationBuilder builder)
    {
        builder.WebHost.ConfigureKestrel(static kestrel => kestrel.Limits.MaxRequestBodySize =
            RequestLimits.MaxBodyBytes);
        builder.Services.ConfigureHttpJsonOptions(static json =>
            OrderServiceJsonContext.Configure(json.SerializerOptions));
        builder.Services.AddApiProblems();
        builder.Services.AddSingleton<IOperatorAccess, OperatorRule>();
        builder.Services.AddValidation();
        builder.Services.AddHostedService<ContractWarmUp>();
        return builder;
    }
}
