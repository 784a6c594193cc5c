using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace OrderService.Load.Scenarios;

/// <summary>
/// What the harness reads from an NBomber JSON config (--config) and the copy it hands NBomber: the same settings with
/// the report folder the harness created for the run, and the scenario's MaxFailCount kept as the harness sets it
/// unless the config sets one (NBomber's scenario settings would otherwise put its default in its place).
/// </summary>
public sealed class NBomberConfig
{
    private static readonly JsonNodeOptions CaseInsensitive = new() { PropertyNameCaseInsensitive = true };
    private readonly JsonObject _root;

    private NBomberConfig(JsonObject root) => _root = root;

    public static NBomberConfig Load(string path) =>
        new(JsonNode.Parse(File.ReadAllText(path), CaseInsensitive) as JsonObject
            ?? throw new ArgumentException($"--config: {path} holds no JSON object."));

    /// <summary>GlobalSettings.ReportFolder as a full path, or null when the config sets none.</summary>
    public string? ReportFolder =>
        Global?[nameof(ReportFolder)]?.GetValue<string>() is { Length: > 0 } folder ? Path.GetFullPath(folder) : null;

    /// <summary>True when the config has LoadSimulationsSettings for <paramref name="scenario"/>.</summary>
    public bool SetsLoad(string scenario) => Simulations(scenario).Any();

    /// <summary>
    /// The most copies the scenario's simulations run at once: a constant simulation's copies, or an injecting one's
    /// rate (copies started per interval).
    /// </summary>
    public int Copies(string scenario) => Simulations(scenario).Select(simulation =>
        simulation.Value is not JsonArray values ? 0 : simulation.Key.ToUpperInvariant() switch
        {
            "KEEPCONSTANT" or "RAMPINGCONSTANT" or "INJECT" or "RAMPINGINJECT" => Number(values[0]),
            "INJECTRANDOM" => Number(values[1]),
            _ => 0,
        }).DefaultIfEmpty(0).Max();

    /// <summary>Writes the config NBomber runs with into a temporary file and returns its path (the caller deletes
    /// it).</summary>
    public string WriteFor(string scenario, string reportFolder, int maxFailCount)
    {
        var copy = (JsonObject)_root.DeepClone();
        if (copy["GlobalSettings"] is not JsonObject global)
        {
            copy["GlobalSettings"] = global = new JsonObject();
        }

        global.Remove(nameof(ReportFolder));
        global[nameof(ReportFolder)] = reportFolder;
        if (Setting(global, scenario) is { } setting && !setting.ContainsKey("MaxFailCount"))
        {
            setting["MaxFailCount"] = maxFailCount;
        }

        var path = Path.Combine(Path.GetTempPath(), $"nbomber-config-{Guid.NewGuid():N}.json");
        File.WriteAllText(path, copy.ToJsonString(new JsonSerializerOptions { WriteIndented = true }));
        return path;
    }

    private JsonObject? Global => _root["GlobalSettings"] as JsonObject;

    private IEnumerable<KeyValuePair<string, JsonNode?>> Simulations(string scenario) =>
        (Global is { } global ? Setting(global, scenario)?["LoadSimulationsSettings"] as JsonArray : null)?
            .OfType<JsonObject>().SelectMany(simulation => simulation) ?? [];

    private static JsonObject? Setting(JsonObject global, string scenario) =>
        (global["ScenariosSettings"] as JsonArray)?.OfType<JsonObject>()
            .FirstOrDefault(s => s["ScenarioName"]?.GetValue<string>() == scenario);

    private static int Number(JsonNode? value) =>
        value?.GetValueKind() == JsonValueKind.Number ? value.GetValue<int>()
            : int.TryParse(value?.ToString(), NumberStyles.None, CultureInfo.InvariantCulture, out var number)
                ? number
                : 0;
}
