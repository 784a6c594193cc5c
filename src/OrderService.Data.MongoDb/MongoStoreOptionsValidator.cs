using System.Globalization;
using Microsoft.Extensions.Options;
using OrderService.Data.Resilience;

namespace OrderService.Data.MongoDb;

/// <summary>The <c>Store:MongoDb</c> rules beyond annotations, checked at start-up whatever the provider.</summary>
public sealed class MongoStoreOptionsValidator(IOptions<ResilienceOptions> resilience)
    : IValidateOptions<MongoStoreOptions>
{
    public ValidateOptionsResult Validate(string? name, MongoStoreOptions mongo) =>
        mongo.WTimeoutMilliseconds is { } wtimeout && AttemptMilliseconds() is { } attemptMilliseconds
            && (wtimeout < 1 || wtimeout >= attemptMilliseconds)
            ? ValidateOptionsResult.Fail(string.Create(CultureInfo.InvariantCulture,
                $"Invalid setting {MongoStoreOptions.SectionName}:WTimeoutMilliseconds = \"{wtimeout}\"; allowed: " +
                $"{MongoStoreOptions.WTimeoutRule} (now below {attemptMilliseconds})."))
            : ValidateOptionsResult.Success;

    private int? AttemptMilliseconds()
    {
        try
        {
            return resilience.Value.AttemptTimeoutSeconds * 1000;
        }
        catch (OptionsValidationException)
        {
            return null;
        }
    }
}
