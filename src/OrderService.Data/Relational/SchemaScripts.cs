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
        var scripts = new List<SchemaScript>();
        foreach (var resource in assembly.GetManifestResourceNames())
        {
            if (!resource.StartsWith(prefix, StringComparison.Ordinal)
                || !resource.EndsWith(".sql", StringComparison.Ordinal))
            {
                continue;
            }

            var name = resource[prefix.Length..^".sql".Length];
            var digits = name.TakeWhile(char.IsAsciiDigit).Count();
            if (digits == 0)
            {
                throw new InvalidOperationException($"Schema script '{resource}' must start with its version number.");
            }

            scripts.Add(new SchemaScript(int.Parse(name[..digits], CultureInfo.InvariantCulture), name,
                Read(assembly, resource)));
        }

        var duplicate = scripts.GroupBy(s => s.Version).FirstOrDefault(g => g.Count() > 1);
        if (duplicate is not null)
        {
            throw new InvalidOperationException($"Two schema scripts in {folder} share version {duplicate.Key}.");
        }

        return scripts.Count == 0
            ? throw new InvalidOperationException($"No schema scripts are embedded under {folder}.")
            : scripts.OrderBy(s => s.Version).ToArray();
    }

    private static string Read(Assembly assembly, string resource)
    {
        using var stream = assembly.GetManifestResourceStream(resource)!;
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }
}
