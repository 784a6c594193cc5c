using System.Globalization;
using Microsoft.Extensions.Options;
using OrderService.Data.Resilience;

namespace OrderService.Data.MongoDb;

/// <summary>The <c>Store:MongoDb</c> rules beyond annotations, checked at start-up whatever the provider.</summary>
public sealed class MongoStoreOptionsValidator(IOptions<ResilienceOptions> resilience)
    : IValidateOptions<MongoStoreOptions>
{
    public ValidateOptionsResult Validate(string? name, MongoStoreOptions mongo)
    {
        var failures = new List<string>();
        if (mongo.W is { } w && !MongoStoreOptions.TryParseW(w, out _))
        {
            failures.Add($"Invalid setting {MongoStoreOptions.SectionName}:W = \"{w.ReplaceLineEndings(" ")}\"; " +
                $"allowed: {MongoStoreOptions.WRule}.");
        }

        if (mongo.WTimeoutMilliseconds is { } wtimeout && AttemptMilliseconds() is { } attemptMilliseconds
            && (wtimeout < 1 || wtimeout >= attemptMilliseconds))
        {
            failures.Add(string.Create(CultureInfo.InvariantCulture,
                $"Invalid setting {MongoStoreOptions.SectionName}:WTimeoutMilliseconds = \"{wtimeout}\"; allowed: " +
                $"{MongoStoreOptions.WTimeoutRule} (now below {attemptMilliseconds})."));
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

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
