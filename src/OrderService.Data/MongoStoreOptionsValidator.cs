using Microsoft.Extensions.Options;
using OrderService.Data.Configuration;
using OrderService.Data.Resilience;

namespace OrderService.Data;

/// <summary>The <c>Store:MongoDb</c> keys, checked at start-up whatever the provider, one error line each.</summary>
public sealed class MongoStoreOptionsValidator(IOptions<ResilienceOptions> resilience) : IValidateOptions<StoreOptions>
{
    public const int MaxMembers = 50;

    public ValidateOptionsResult Validate(string? name, StoreOptions options)
    {
        var mongo = options.MongoDb;
        var failures = new List<string>();
        if (mongo.W is { } w && !MongoStoreOptions.TryParseW(w, out _))
        {
            failures.Add(SettingError.Invalid($"{MongoStoreOptions.SectionName}:W", w,
                SettingRuleAttribute.Of<MongoStoreOptions>(nameof(MongoStoreOptions.W))));
        }

        if (mongo.WTimeoutMilliseconds is { } wtimeout && AttemptMilliseconds() is { } attemptMilliseconds
            && (wtimeout < 1 || wtimeout >= attemptMilliseconds))
        {
            failures.Add(SettingError.Invalid($"{MongoStoreOptions.SectionName}:WTimeoutMilliseconds", wtimeout,
                $"{SettingRuleAttribute.Of<MongoStoreOptions>(nameof(MongoStoreOptions.WTimeoutMilliseconds))} (now " +
                $"below {attemptMilliseconds})"));
        }

        if (mongo.ReadConcern is { } readConcern && !Enum.IsDefined(readConcern))
        {
            failures.Add(SettingError.Invalid($"{MongoStoreOptions.SectionName}:ReadConcern", readConcern,
                string.Join(", ", Enum.GetNames<MongoReadConcern>())));
        }

        if (mongo.ReadPreference is { } readPreference && !Enum.IsDefined(readPreference))
        {
            failures.Add(SettingError.Invalid($"{MongoStoreOptions.SectionName}:ReadPreference", readPreference,
                string.Join(", ", Enum.GetNames<MongoReadPreference>())));
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
