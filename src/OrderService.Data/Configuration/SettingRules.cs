using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;

namespace OrderService.Data.Configuration;

/// <summary>Checks an options object and its nested sections against annotations and named enum members.</summary>
internal sealed class SettingRules<TOptions>(string sectionName) : IValidateOptions<TOptions>
    where TOptions : class
{
    public ValidateOptionsResult Validate(string? name, TOptions options)
    {
        var failures = new List<string>();
        Check(options, sectionName, failures);
        return failures.Count == 0 ? ValidateOptionsResult.Success : ValidateOptionsResult.Fail(failures);
    }

    private static void Check(object options, string path, List<string> failures)
    {
        foreach (var property in SettingShape.Settings(options.GetType()))
        {
            var key = $"{path}:{property.Name}";
            var value = property.GetValue(options);
            if (SettingShape.IsSection(property.PropertyType))
            {
                if (value is not null)
                {
                    Check(value, key, failures);
                }

                continue;
            }

            if (value is Enum member && !Enum.IsDefined(member.GetType(), member))
            {
                failures.Add(SettingError.Invalid(key, value, SettingShape.Allowed(property)));
            }

            var context = new ValidationContext(options) { MemberName = property.Name, DisplayName = key };
            foreach (var rule in property.GetCustomAttributes(typeof(ValidationAttribute), inherit: true)
                .Cast<ValidationAttribute>())
            {
                if (rule.GetValidationResult(value, context) != ValidationResult.Success)
                {
                    failures.Add(SettingError.Invalid(key, value, SettingShape.Describe(rule, path, options)));
                }
            }
        }
    }
}
