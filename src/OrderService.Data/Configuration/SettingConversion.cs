using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Configuration;

namespace OrderService.Data.Configuration;

/// <summary>Finds the values the configuration binder could not convert before it tries.</summary>
internal static class SettingConversion
{
    /// <summary>The section's bad values, one line each, when at least one cannot be converted; else none.</summary>
    public static List<string> Check(IConfigurationSection section, Type optionsType)
    {
        var failures = new List<string>();
        var unconvertible = 0;
        Check(section, optionsType, failures, ref unconvertible);
        return unconvertible > 0 ? failures : [];
    }

    private static void Check(IConfigurationSection section, Type type, List<string> failures, ref int unconvertible)
    {
        foreach (var property in SettingShape.Settings(type))
        {
            var child = section.GetSection(property.Name);
            if (SettingShape.IsSection(property.PropertyType))
            {
                Check(child, property.PropertyType, failures, ref unconvertible);
                continue;
            }

            if (SettingShape.ElementType(property.PropertyType) is { } element)
            {
                // The binder skips a list or dictionary element it cannot convert, without a word: name it.
                foreach (var item in child.GetChildren())
                {
                    if (SettingShape.IsSection(element))
                    {
                        Check(item, element, failures, ref unconvertible);
                    }
                    else if (item.Value is { } itemText && !TryConvert(itemText, element, out _))
                    {
                        unconvertible++;
                        failures.Add(SettingError.Invalid(item.Path, itemText, SettingShape.Allowed(element)));
                    }
                }

                continue;
            }

            if (child.Value is not { } text || property.SetMethod is null)
            {
                continue;
            }

            if (!TryConvert(text, property.PropertyType, out var value))
            {
                unconvertible++;
                failures.Add(SettingError.Invalid(child.Path, text, SettingShape.Allowed(property)));
                continue;
            }

            var context = new ValidationContext(text) { MemberName = property.Name, DisplayName = child.Path };
            foreach (var rule in property.GetCustomAttributes(typeof(ValidationAttribute), inherit: true)
                .Cast<ValidationAttribute>())
            {
                if (rule.GetValidationResult(value, context) != ValidationResult.Success)
                {
                    failures.Add(SettingError.Invalid(child.Path, text, SettingShape.Describe(rule)));
                }
            }
        }
    }

    private static bool TryConvert(string text, Type propertyType, out object? value)
    {
        value = text;
        var underlying = Nullable.GetUnderlyingType(propertyType);
        if (underlying is not null && text.Length == 0)
        {
            value = null; // the binder sets null
            return true;
        }

        var type = underlying ?? propertyType;
        var converter = TypeDescriptor.GetConverter(type);
        if (type == typeof(string) || !converter.CanConvertFrom(typeof(string)))
        {
            return true; // the binder takes it as it is, or binds it some other way (and names its own errors)
        }

        try
        {
            value = converter.ConvertFromInvariantString(text);
            return !type.IsEnum || value is null || Enum.IsDefined(type, value);
        }
        catch (Exception exception) when (
            exception is FormatException or ArgumentException or NotSupportedException or OverflowException
            || exception.InnerException is FormatException or OverflowException)
        {
            return false;
        }
    }
}
