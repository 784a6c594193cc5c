using System.Globalization;
using System.Text.Json.Nodes;
using YamlDotNet.Core;
using YamlDotNet.RepresentationModel;

namespace OrderService.Deployment.Tests;

/// <summary>YamlDotNet's document model with the few lookups the tests need, and a faithful JSON form for the schema validators.</summary>
internal static class Yaml
{
    /// <summary>Every document of a (multi-document) YAML text, empty documents left out.</summary>
    public static IReadOnlyList<YamlMappingNode> Documents(string text)
    {
        var stream = new YamlStream();
        stream.Load(new StringReader(text));
        return [.. stream.Documents.Select(d => d.RootNode).OfType<YamlMappingNode>()];
    }

    public static YamlNode? Get(this YamlNode? node, string key) =>
        node is YamlMappingNode map && map.Children.TryGetValue(new YamlScalarNode(key), out var value) ? value : null;

    public static YamlNode? Path(this YamlNode? node, params string[] keys) => keys.Aggregate(node, (current, key) => current.Get(key));

    public static string? Text(this YamlNode? node, params string[] keys) => (node.Path(keys) as YamlScalarNode)?.Value;

    public static IReadOnlyList<YamlNode> Items(this YamlNode? node, params string[] keys) =>
        node.Path(keys) is YamlSequenceNode sequence ? [.. sequence.Children] : [];

    public static IEnumerable<(string Key, YamlNode Value)> Entries(this YamlNode? node, params string[] keys) =>
        node.Path(keys) is YamlMappingNode map ? map.Children.Select(c => (((YamlScalarNode)c.Key).Value!, c.Value)) : [];

    /// <summary>
    /// The node as JSON with YAML 1.2 core-schema types: an unquoted 2 is a number and true a boolean, a quoted "2"
    /// stays a string. That difference is what a schema check must see (replicas: "2" is invalid).
    /// </summary>
    public static JsonNode? ToJson(this YamlNode node) => node switch
    {
        YamlMappingNode map => new JsonObject(map.Children.Select(c => KeyValuePair.Create(((YamlScalarNode)c.Key).Value!, c.Value.ToJson()))),
        YamlSequenceNode sequence => new JsonArray([.. sequence.Children.Select(ToJson)]),
        YamlScalarNode scalar => Scalar(scalar),
        _ => throw new NotSupportedException($"YAML node {node.NodeType} at {node.Start}"),
    };

    private static JsonNode? Scalar(YamlScalarNode scalar)
    {
        var value = scalar.Value ?? "";
        if (scalar.Style != ScalarStyle.Plain)
        {
            return JsonValue.Create(value);
        }

        return value switch
        {
            "" or "~" or "null" or "Null" or "NULL" => null,
            "true" or "True" or "TRUE" => JsonValue.Create(true),
            "false" or "False" or "FALSE" => JsonValue.Create(false),
            _ when long.TryParse(value, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var whole) => JsonValue.Create(whole),
            _ when double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out var real) => JsonValue.Create(real),
            _ => JsonValue.Create(value),
        };
    }
}
