using System.Globalization;
using System.Reflection;

namespace OrderService.Data.Document;

/// <summary>
/// The document layout's versioned schema scripts, embedded in the engine's project as DocumentSchema_NNN.sql. They keep a
/// version table of their own (document_schema_versions), so both layouts can live in one database.
/// </summary>
public static class DocumentSchemaScripts
{
    public const string VersionTable = "document_schema_versions";

    /// <summary>The scripts embedded at the root of one engine's project (<paramref name="engine"/>), oldest first.</summary>
    public static IReadOnlyList<(int Version, string Sql)> For(Assembly engine)
    {
        var prefix = $"{engine.GetName().Name}.DocumentSchema_";
        return engine.GetManifestResourceNames()
            .Where(name => name.StartsWith(prefix, StringComparison.Ordinal) && name.EndsWith(".sql", StringComparison.Ordinal))
            .Select(name => (Version: int.Parse(name[prefix.Length..^".sql".Length], NumberStyles.None, CultureInfo.InvariantCulture), Sql: Read(engine, name)))
            .OrderBy(script => script.Version)
            .ToList();
    }

    private static string Read(Assembly assembly, string name)
    {
        using var stream = assembly.GetManifestResourceStream(name)
            ?? throw new InvalidOperationException($"Embedded schema script {name} is missing.");
        using var reader = new StreamReader(stream);
        return reader.ReadToEnd();
    }
}
