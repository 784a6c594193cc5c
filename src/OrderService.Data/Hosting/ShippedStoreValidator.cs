using Microsoft.Extensions.Options;

namespace OrderService.Data.Hosting;

/// <summary>Store:Provider must name a store this build ships.</summary>
public sealed class ShippedStoreValidator(IEnumerable<StoreEngine> engines) : IValidateOptions<StoreOptions>
{
    public ValidateOptionsResult Validate(string? name, StoreOptions options)
    {
        var shipped = engines.Select(e => e.Provider).Distinct().Order().ToList();
        return shipped.Contains(options.Provider)
            ? ValidateOptionsResult.Success
            : ValidateOptionsResult.Fail(
                $"Invalid setting {StoreOptions.SectionName}:{nameof(StoreOptions.Provider)} " +
                $"= \"{options.Provider}\"; allowed: {string.Join(", ", shipped)} (the stores this build ships).");
    }
}
