using Microsoft.Extensions.Options;
using OrderService.Data.Resilience;

namespace OrderService.Data.MongoDb;

/// <summary>The <c>Store:MongoDb</c> keys, checked at start-up whatever the provider (a bad value is a bad value); each failure names its key.</summary>
public sealed class MongoStoreOptionsValidator(IOptions<ResilienceOptions> resilience) : IValidateOptions<StoreOptions>
{
    public const int MaxMembers = 50;

    public ValidateOptionsResult Validate(string? name, StoreOptions options)
    {
        var mongo = options.MongoDb;
        var failures = new List<string>();
        if (mongo.W is { } w && !MongoSettings.TryParseW(w, out _))
        {
            failures.Add($"{MongoStoreOptions.SectionName}:W must be 'majority' or a number of members from 1 to {MaxMembers} (w:0, unacknowledged, cannot report a duplicate key or a conditional update's result); got '{w}'.");
        }

        var attemptMilliseconds = resilience.Value.AttemptTimeoutSeconds * 1000;
        if (mongo.WTimeoutMilliseconds is { } wtimeout && (wtimeout < 1 || wtimeout >= attemptMilliseconds))
        {
            failures.Add($"{MongoStoreOptions.SectionName}:WTimeoutMilliseconds must be from 1 to below Resilience:AttemptTimeoutSeconds ({attemptMilliseconds} ms), so the server's write-concern timeout arrives before the attempt is abandoned; got {wtimeout}.");
        }

        if (mongo.ReadConcern is { } readConcern && !Enum.IsDefined(readConcern))
        {
            failures.Add($"{MongoStoreOptions.SectionName}:ReadConcern has an unknown value '{readConcern}' (Local, Majority, Available).");
        }

        if (mongo.ReadPreference is { } readPreference && !Enum.IsDefined(readPreference))
        {
            failures.Add($"{MongoStoreOptions.SectionName}:ReadPreference has an unknown value '{readPreference}' (Primary, PrimaryPreferred, Secondary, SecondaryPreferred, Nearest).");
        }

        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }
}
