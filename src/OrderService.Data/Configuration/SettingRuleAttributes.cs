using System.ComponentModel.DataAnnotations;
using System.Globalization;
using System.Reflection;

namespace OrderService.Data.Configuration;

/// <summary>A rule that relates a setting to another one.</summary>
public interface ISettingRule
{
    /// <summary>What the rule allows, keys in full.</summary>
    string Describe(string sectionPath, object? options);
}

/// <summary>A number at most the value of another setting of the same section.</summary>
[AttributeUsage(AttributeTargets.Property)]
public sealed class AtMostSettingAttribute(string otherProperty) : ValidationAttribute, ISettingRule
{
    public string OtherProperty { get; } = otherProperty;

    public string Describe(string sectionPath, object? options)
    {
        var key = $"{sectionPath}:{OtherProperty}";
        if (options is null || Other(options) is not { } limit)
        {
            return $"at most {key}";
        }

        // Attributes are created anew on every lookup, so this one is found by value, not by reference.
        var range = options.GetType().GetProperties().Where(p => Equals(p.GetCustomAttribute<AtMostSettingAttribute>()))
            .Select(p => p.GetCustomAttribute<RangeAttribute>()).FirstOrDefault(r => r is not null);
        var lowest = range is null ? "" : string.Create(CultureInfo.InvariantCulture, $"{range.Minimum} to ");
        return string.Create(CultureInfo.InvariantCulture, $"{lowest}{limit} (at most {key})");
    }

    // The conversion check runs before binding, with only the text at hand: the rule waits for the bound object.
    protected override ValidationResult? IsValid(object? value, ValidationContext validationContext) =>
        value is IConvertible given && Other(validationContext.ObjectInstance) is { } limit
        && Convert.ToDouble(given, CultureInfo.InvariantCulture) > Convert.ToDouble(limit, CultureInfo.InvariantCulture)
            ? new ValidationResult(null)
            : ValidationResult.Success;

    private IConvertible? Other(object options) => options.GetType()
        .GetProperty(OtherProperty)?.GetValue(options) as IConvertible;
}

/// <summary>A value another setting of the same section rules out (a layout that provider lacks, say).</summary>
[AttributeUsage(AttributeTargets.Property, AllowMultiple = true)]
public sealed class NotWithSettingAttribute(object deniedValue, string otherProperty, object otherValue, string reason)
    : ValidationAttribute, ISettingRule
{
    public object DeniedValue { get; } = deniedValue;

    public string OtherProperty { get; } = otherProperty;

    public object OtherValue { get; } = otherValue;

    public string Reason { get; } = reason;

    /// <summary>The values still allowed when the denied one is an enum member, as the error words them.</summary>
    public string Describe(string sectionPath, object? options)
    {
        var allowed = DeniedValue is Enum denied
            ? string.Join(", ", Enum.GetNames(denied.GetType()).Where(n => n != denied.ToString()))
            : $"anything but {DeniedValue}";
        return $"{allowed} with {sectionPath}:{OtherProperty}={OtherValue} ({Reason})";
    }

    protected override ValidationResult? IsValid(object? value, ValidationContext validationContext)
    {
        var other = validationContext.ObjectInstance.GetType()
            .GetProperty(OtherProperty)?.GetValue(validationContext.ObjectInstance);
        return Equals(value, DeniedValue)
            && Equals(other, OtherValue) ? new ValidationResult(null) : ValidationResult.Success;
    }
}

/// <summary>The words of a rule that a validator of its own enforces: it needs more than this section.</summary>
[AttributeUsage(AttributeTargets.Property)]
public sealed class SettingRuleAttribute(string format, params object[] arguments) : Attribute
{
    public string Text { get; } = string.Format(CultureInfo.InvariantCulture, format, arguments);

    /// <summary>The rule's words on <paramref name="property"/> of <typeparamref name="TOptions"/>.</summary>
    public static string Of<TOptions>(string property) =>
        typeof(TOptions).GetProperty(property)?.GetCustomAttribute<SettingRuleAttribute>()?.Text
        ?? throw new InvalidOperationException($"{typeof(TOptions).Name}.{property} has no [SettingRule].");
}
