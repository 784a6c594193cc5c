using System.Globalization;
using System.Reflection;

namespace OrderService.Data.Relational;

/// <summary>One versioned schema script: <c>NNNN_name.sql</c>, embedded in its engine's assembly.</summary>
public sealed record SchemaScript(int Version, string Name, string Sql);

/// <summary>Finds a layout's versioned scripts among an engine's embedded resources.</summary>
public static class SchemaScripts
{
    /// <summary>The scripts of <paramref name="layout"/> (DocumentSchema/ or Schema/), by version.</summary>
    public static IReadOnlyList<SchemaScript> Load(StoreLayout layout, Assembly assembly) =>
        Load(layout == StoreLayout.Document ? "DocumentSchema" : "Schema", assembly);

    /// <summary>The scripts under <paramref name="folder"/>, ordered by version.</summary>
    public static IReadOnlyList<SchemaScript> Load(string folder, Assembly assembly)
    {
        var prefix = assembly.GetName().Name + "." + folder.Replace('/', '.').Replace('\\', '.') + ".";
        var scripts = assembly.GetManifestResourceNames()
            .Where(resource => resource.StartsWith(prefix, StringComparison.Ordinal)
                && resource.EndsWith(".sql", StringComparison.Ordinal))
            .Select(resource => Read(assembly, resource, resource[prefix.Length..^".sql".Length]))
            .OrderBy(s => s.Version)
            .ToArray();
        if (scripts.GroupBy(s => s.Version).FirstOrDefault(g => g.Count() > 1) is { } duplicate)
        {
            throw new InvalidOperationException($"Two schema scripts in {folder} share version {duplicate.Key}.");
        }

        return scripts.Length == 0
            ? throw new InvalidOperationException($"No schema scripts are embedded under {folder}.")
            : scripts;
    }

    private static SchemaScript Read(Assembly assembly, string resource, string name)
    {
        var digits = name.TakeWhile(char.IsAsciiDigit).Count();
        if (digits == 0)
        {
            throw new InvalidOperationException($"Schema script '{resource}' must start with its version number.");
        }

        using var reader = new StreamReader(assembly.GetManifestResourceStream(resource)!);
        return new SchemaScript(int.Parse(name[..digits], CultureInfo.InvariantCulture), name, reader.ReadToEnd());
    }
}
