using OrderService.Authorization;
using OrderService.Contracts;
using OrderService.Problems;

namespace OrderService.Apis;

/// <summary>What the endpoints rely on: the JSON contract (warmed up in the background), the body limit, the problems,
/// validation and the handlers' services.</summary>
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
