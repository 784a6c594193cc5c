using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Options;
using OrderService.Data.Configuration;

namespace OrderService.Data.MongoDb;

/// <summary>ConnectionStrings:Orders read as a MongoDB URI with the other settings, before anything starts, as the
/// other engines' strings are parsed by their drivers.</summary>
internal sealed class MongoUrlValidator(IConfiguration configuration) : IValidateOptions<StoreOptions>
{
    private const string Key = $"ConnectionStrings:{StoreRegistration.ConnectionStringName}";

    public ValidateOptionsResult Validate(string? name, StoreOptions options) =>
        options.Provider == StoreProvider.MongoDb
        && configuration.GetConnectionString(StoreRegistration.ConnectionStringName) is { Length: > 0 } value
        && MongoSettings.ParseUrl(value) is null
            ? ValidateOptionsResult.Fail(SettingError.Invalid(Key, value, MongoSettings.UriForm))
            : ValidateOptionsResult.Success;
}
