using System.Collections;
using System.ComponentModel.DataAnnotations;
using System.Globalization;
using System.Reflection;

namespace OrderService.Data.Configuration;

/// <summary>What an options class looks like to the configuration binder.</summary>
internal static class SettingShape
{
    public static IEnumerable<PropertyInfo> Settings(Type type) =>
        type.GetProperties(BindingFlags.Public | BindingFlags.Instance)
            .Where(static p => p.GetIndexParameters().Length == 0 && p.GetMethod is not null);

    /// <summary>A nested options object the binder walks into (not a scalar, not a collection).</summary>
    public static bool IsSection(Type type) =>
        type.IsClass && type != typeof(string) && type != typeof(Uri) && !typeof(IEnumerable).IsAssignableFrom(type)
        && type.GetConstructor(Type.EmptyTypes) is not null
            && type.Namespace?.StartsWith("System", StringComparison.Ordinal) != true;

    /// <summary>The element type of a list, array, set or dictionary setting; null for anything else.</summary>
    public static Type? ElementType(Type type)
    {
        if (type == typeof(string) || !typeof(IEnumerable).IsAssignableFrom(type))
        {
            return null;
        }

        if (type.IsArray)
        {
            return type.GetElementType();
        }

        var generic = type.IsGenericType ? type.GetGenericArguments() : [];
        return generic.Length switch
        {
            1 => generic[0],
            2 => generic[1],
            _ => null,
        };
    }

    /// <summary>What a setting of this property accepts.</summary>
    public static string Allowed(PropertyInfo property) =>
        Allowed(property.PropertyType, property.GetCustomAttributes<ValidationAttribute>());

    /// <summary>Everything a setting of this property accepts, as the reference shows it.</summary>
    public static string Allowed(PropertyInfo property, string sectionPath)
    {
        var allowed = Allowed(property.PropertyType, property.GetCustomAttributes<ValidationAttribute>(), sectionPath);
        return property.GetCustomAttribute<SettingRuleAttribute>() is { } rule
            ? (allowed is "any text" ? rule.Text : $"{allowed}, {rule.Text}")
            : allowed;
    }

    /// <summary>What a value of this type accepts, narrowed by <paramref name="annotations"/>.</summary>
    public static string Allowed(Type valueType, IEnumerable<ValidationAttribute>? annotations = null,
        string? sectionPath = null)
    {
        var type = Nullable.GetUnderlyingType(valueType) ?? valueType;
        var rules = (annotations ?? []).Select(rule => Describe(rule, sectionPath)).ToList();
        if (type.IsEnum || type == typeof(bool))
        {
            // The names are the allowed values; a rule across settings narrows them further.
            var names = type.IsEnum ? string.Join(", ", Enum.GetNames(type)) : "true, false";
            return rules.Count == 0 ? names : $"{names}; {string.Join(", ", rules)}";
        }

        var kind = Kind(type);
        if (rules.Count == 0)
        {
            return kind ?? "any text";
        }

        return kind is null ? string.Join(", ", rules) : $"{kind}, {string.Join(", ", rules)}";
    }

    /// <summary>A data annotation as the range or limit it sets, in words.</summary>
    public static string Describe(ValidationAttribute rule, string? sectionPath = null, object? options = null) =>
        rule switch
    {
        ISettingRule across => across.Describe(sectionPath ?? "", options),
        RangeAttribute range => Invariant($"{range.Minimum} to {range.Maximum}"),
        MaxLengthAttribute max => Invariant($"at most {max.Length} characters"),
        MinLengthAttribute min => Invariant($"at least {min.Length} characters"),
        StringLengthAttribute length => Invariant($"{length.MinimumLength} to {length.MaximumLength} characters"),
        LengthAttribute length => Invariant($"{length.MinimumLength} to {length.MaximumLength} items or characters"),
        RequiredAttribute => "a non-empty value",
        AllowedValuesAttribute values =>
            string.Join(", ", values.Values.Select(v => Convert.ToString(v, CultureInfo.InvariantCulture))),
        DeniedValuesAttribute values => "anything but "
            + string.Join(", ", values.Values.Select(v => Convert.ToString(v, CultureInfo.InvariantCulture))),
        RegularExpressionAttribute pattern => $"text matching {pattern.Pattern}",
        UrlAttribute => "an absolute http, https or ftp URL",
        _ => SettingError.OneLine(rule.FormatErrorMessage("the value")).TrimEnd('.'),
    };

    private static string? Kind(Type type) => Type.GetTypeCode(type) switch
    {
        TypeCode.Byte or TypeCode.SByte or TypeCode.Int16 or TypeCode.UInt16 or TypeCode.Int32 or TypeCode.UInt32
            or TypeCode.Int64 or TypeCode.UInt64 => "a whole number",
        TypeCode.Single or TypeCode.Double or TypeCode.Decimal => "a number",
        TypeCode.String => null,
        _ when type == typeof(TimeSpan) => "a duration such as 00:00:30",
        _ when type == typeof(Uri) => "a URI",
        _ => $"a {type.Name} value",
    };

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
