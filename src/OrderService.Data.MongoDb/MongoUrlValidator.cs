using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;
using OrderService.Data.Hosting;

namespace OrderService.Data.MongoDb;

/// <summary>
/// ConnectionStrings:Orders parsed as a MongoDB URI at start-up, as other engines' drivers parse theirs.
/// </summary>
internal sealed class MongoUrlValidator(IConfiguration configuration) : IValidateOptions<StoreOptions>
{
    private const string Key = $"ConnectionStrings:{StoreRegistration.ConnectionStringName}";

    public ValidateOptionsResult Validate(string? name, StoreOptions options) =>
        options.Provider == StoreProvider.MongoDb
        && configuration.GetConnectionString(StoreRegistration.ConnectionStringName) is { Length: > 0 } value
        && MongoSettings.ParseUrl(value) is null
            ? ValidateOptionsResult.Fail(
                $"Invalid setting {Key} = (value hidden: it may hold a credential); allowed: {MongoSettings.UriForm}.")
            : ValidateOptionsResult.Success;
}
