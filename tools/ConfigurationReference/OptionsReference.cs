using System.Collections;
using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using System.Globalization;
using System.Reflection;
using Microsoft.Extensions.Configuration;

namespace OrderService.Tools;

/// <summary>One key of the configuration reference.</summary>
public sealed record SettingReference(string Key, string Type, string Default, string Allowed, string? Meaning);

/// <summary>A section and its own keys, in declaration order.</summary>
public sealed record SectionReference(string Path, string? Meaning, IReadOnlyList<SettingReference> Settings);

/// <summary>
/// The reference of an options class as the binder and the validator see it: its properties, their defaults,
/// their data annotations and their [Description].
/// </summary>
public static class OptionsReference
{
    public const string ListIndex = "*";

    /// <summary><paramref name="optionsType"/>'s settings under <paramref name="sectionName"/>, nested after.</summary>
    public static IReadOnlyList<SectionReference> Of(Type optionsType, string sectionName, IConfiguration? defaults)
    {
        var instance = Activator.CreateInstance(optionsType)!;
        defaults?.GetSection(sectionName).Bind(instance);
        var sections = new List<SectionReference>();
        Walk(optionsType, instance, sectionName, sections);
        return sections;
    }

    /// <summary>The option types a class walks into, so a nested section is described once, in its parent.</summary>
    public static IEnumerable<Type> NestedSections(Type optionsType) =>
        Settings(optionsType).Select(p => ElementType(p.PropertyType) ?? p.PropertyType)
            .Where(IsSection).SelectMany(t => NestedSections(t).Prepend(t));

    public static string OneLine(string text) => text.ReplaceLineEndings(" ").Trim();

    private static void Walk(Type type, object? instance, string path, List<SectionReference> sections)
    {
        var settings = new List<SettingReference>();
        var nested = new List<(Type Type, object? Instance, string Path)>();
        sections.Add(new(path, type.GetCustomAttribute<DescriptionAttribute>()?.Description, settings));
        foreach (var property in Settings(type).Where(p => p.SetMethod?.IsPublic == true))
        {
            var key = $"{path}:{property.Name}";
            var value = instance is null ? null : property.GetValue(instance);
            var meaning = property.GetCustomAttribute<DescriptionAttribute>()?.Description;
            if (IsSection(property.PropertyType))
            {
                nested.Add((property.PropertyType, value, key));
            }
            else if (ElementType(property.PropertyType) is { } element)
            {
                var isSection = IsSection(element);
                settings.Add(new($"{key}:{ListIndex}", $"list of {(isSection ? "sections" : TypeName(element))}",
                    Show(value), isSection ? "a list" : Allowed(element, []), meaning));
                if (isSection)
                {
                    nested.Add((element, null, $"{key}:{ListIndex}"));
                }
            }
            else
            {
                settings.Add(new(key, TypeName(property.PropertyType), Show(value),
                    Allowed(property.PropertyType, property.GetCustomAttributes<ValidationAttribute>()), meaning));
            }
        }

        foreach (var (nestedType, nestedInstance, nestedPath) in nested)
        {
            Walk(nestedType, nestedInstance, nestedPath, sections);
        }
    }

    private static IEnumerable<PropertyInfo> Settings(Type type) =>
        type.GetProperties(BindingFlags.Public | BindingFlags.Instance)
            .Where(static p => p.GetIndexParameters().Length == 0 && p.GetMethod is not null);

    /// <summary>A nested options object the binder walks into (not a scalar, not a collection).</summary>
    private static bool IsSection(Type type) =>
        type.IsClass && type != typeof(string) && type != typeof(Uri) && !typeof(IEnumerable).IsAssignableFrom(type)
        && type.GetConstructor(Type.EmptyTypes) is not null
        && type.Namespace?.StartsWith("System", StringComparison.Ordinal) != true;

    /// <summary>The element type of a list, array, set or dictionary setting; null for anything else.</summary>
    private static Type? ElementType(Type type)
    {
        if (type == typeof(string) || !typeof(IEnumerable).IsAssignableFrom(type))
        {
            return null;
        }

        var generic = type.IsArray ? [type.GetElementType()!] : type.IsGenericType ? type.GetGenericArguments() : [];
        return generic.Length is 1 or 2 ? generic[^1] : null;
    }

    /// <summary>What a value of this type accepts, narrowed by its data annotations.</summary>
    private static string Allowed(Type valueType, IEnumerable<ValidationAttribute> annotations)
    {
        var type = Nullable.GetUnderlyingType(valueType) ?? valueType;
        var rules = annotations.Select(Describe).OfType<string>().ToList();
        var kind = type.IsEnum ? string.Join(", ", Enum.GetNames(type)) : type == typeof(bool) ? "true, false"
            : Kind(type);
        return (kind, rules.Count) switch
        {
            (null, 0) => "any text",
            (null, _) => string.Join(", ", rules),
            (_, 0) => kind,
            _ => $"{kind}, {string.Join(", ", rules)}",
        };
    }

    /// <summary>A data annotation as the range or limit it sets, in words; null where the type says it all.</summary>
    private static string? Describe(ValidationAttribute rule) => rule switch
    {
        EnumDataTypeAttribute => null,
        RangeAttribute range => Invariant($"{range.Minimum} to {range.Maximum}"),
        MaxLengthAttribute max => Invariant($"at most {max.Length} characters"),
        MinLengthAttribute min => Invariant($"at least {min.Length} characters"),
        StringLengthAttribute length => Invariant($"{length.MinimumLength} to {length.MaximumLength} characters"),
        LengthAttribute length => Invariant($"{length.MinimumLength} to {length.MaximumLength} items or characters"),
        RequiredAttribute => "a non-empty value",
        AllowedValuesAttribute values =>
            string.Join(", ", values.Values.Select(v => Convert.ToString(v, CultureInfo.InvariantCulture))),
        RegularExpressionAttribute pattern => $"text matching {pattern.Pattern}",
        _ => OneLine(rule.FormatErrorMessage("the value")).TrimEnd('.'),
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

    private static string TypeName(Type type)
    {
        var underlying = Nullable.GetUnderlyingType(type) ?? type;
        return underlying switch
        {
            _ when underlying.IsEnum => "enum",
            _ when underlying == typeof(bool) => "bool",
            _ when underlying == typeof(string) => "string",
            _ when underlying == typeof(TimeSpan) => "duration",
            _ when underlying == typeof(double) || underlying == typeof(float) || underlying == typeof(decimal) =>
                "number",
            _ when Type.GetTypeCode(underlying) is >= TypeCode.SByte and <= TypeCode.UInt64 => "integer",
            _ => underlying.Name,
        };
    }

    private static string Show(object? value) => value switch
    {
        null or string { Length: 0 } => "unset",
        bool flag => flag ? "true" : "false",
        string text => text,
        IFormattable formattable => formattable.ToString(null, CultureInfo.InvariantCulture),
        IEnumerable items => items.Cast<object?>().Select(Show)
            .ToList() is { Count: > 0 } shown ? string.Join(", ", shown) : "none",
        _ => value.ToString() ?? "unset",
    };

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
