using System.Collections;
using System.ComponentModel;
using System.Globalization;
using System.Reflection;
using Microsoft.Extensions.Configuration;

namespace OrderService.Data.Configuration;

/// <summary>One key of the configuration reference.</summary>
public sealed record SettingReference(string Key, string Type, string Default, string Allowed, string? Meaning);

/// <summary>A section and its own keys, in declaration order.</summary>
public sealed record SectionReference(string Path, string? Meaning, IReadOnlyList<SettingReference> Settings);

/// <summary>The configuration reference of an options class, read as the binder and the validator see it.</summary>
public static class SettingsReference
{
    public const string ListIndex = "*";

    /// <summary><paramref name="optionsType"/>'s settings under <paramref name="sectionName"/>, nested after.</summary>
    public static IReadOnlyList<SectionReference> Of(Type optionsType, string sectionName, IConfiguration? defaults =
        null)
    {
        var instance = Activator.CreateInstance(optionsType)!;
        defaults?.GetSection(sectionName).Bind(instance);
        var sections = new List<SectionReference>();
        Walk(optionsType, instance, sectionName, sections);
        return sections;
    }

    /// <summary>The option types a class walks into, so a nested section is described once, in its parent.</summary>
    public static IEnumerable<Type> NestedSections(Type optionsType) =>
        SettingShape.Settings(optionsType).Select(p => SettingShape.ElementType(p.PropertyType) ?? p.PropertyType)
            .Where(SettingShape.IsSection).SelectMany(t => NestedSections(t).Prepend(t));

    private static void Walk(Type type, object? instance, string path, List<SectionReference> sections)
    {
        var settings = new List<SettingReference>();
        var nested = new List<(Type Type, object? Instance, string Path)>();
        sections.Add(new(path, type.GetCustomAttribute<DescriptionAttribute>()?.Description, settings));
        foreach (var property in SettingShape.Settings(type).Where(p => p.SetMethod?.IsPublic == true))
        {
            var key = $"{path}:{property.Name}";
            var value = instance is null ? null : property.GetValue(instance);
            var meaning = property.GetCustomAttribute<DescriptionAttribute>()?.Description;
            if (SettingShape.IsSection(property.PropertyType))
            {
                nested.Add((property.PropertyType, value, key));
            }
            else if (SettingShape.ElementType(property.PropertyType) is { } element)
            {
                var isSection = SettingShape.IsSection(element);
                var allowed = property.GetCustomAttribute<SettingRuleAttribute>()?.Text is { } rule
                    ? isSection ? rule : $"{SettingShape.Allowed(element)}, {rule}"
                    : isSection ? "a list" : SettingShape.Allowed(element);
                settings.Add(new($"{key}:{ListIndex}", $"list of {(isSection ? "sections" : TypeName(element))}",
                    Show(value), allowed, meaning));
                if (isSection)
                {
                    nested.Add((element, null, $"{key}:{ListIndex}"));
                }
            }
            else
            {
                settings.Add(new(key, TypeName(property.PropertyType), Show(value),
                    SettingShape.Allowed(property, path), meaning));
            }
        }

        foreach (var (nestedType, nestedInstance, nestedPath) in nested)
        {
            Walk(nestedType, nestedInstance, nestedPath, sections);
        }
    }

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
        null => "unset",
        string { Length: 0 } => "unset",
        bool flag => flag ? "true" : "false",
        string text => text,
        IFormattable formattable => formattable.ToString(null, CultureInfo.InvariantCulture),
        IEnumerable items => items.Cast<object?>().Select(Show)
            .ToList() is { Count: > 0 } shown ? string.Join(", ", shown) : "none",
        _ => value.ToString() ?? "unset",
    };
}
