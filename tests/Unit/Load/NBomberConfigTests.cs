using System.Text.Json.Nodes;
using OrderService.Load.Scenarios;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Load;

public sealed class NBomberConfigTests : IDisposable
{
    private readonly List<string> _files = [];

    [Fact]
    public void The_copies_come_from_the_scenario_s_simulations()
    {
        var config = Load("""
            { "GlobalSettings": { "ScenariosSettings": [
              { "ScenarioName": "other", "LoadSimulationsSettings": [ { "KeepConstant": [500, "00:00:10"] } ] },
              { "ScenarioName": "workflow", "LoadSimulationsSettings": [
                { "RampingConstant": [10, "00:00:30"] }, { "KeepConstant": [50, "00:02:00"] },
                { "Pause": "00:00:05" } ] } ] } }
            """);

        config.SetsLoad("workflow").ShouldBeTrue();
        config.Copies("workflow").ShouldBe(50);
        config.SetsLoad("missing").ShouldBeFalse();
    }

    [Fact]
    public void The_copy_NBomber_runs_reports_into_the_run_s_folder_and_keeps_MaxFailCount_unless_the_config_sets_it()
    {
        var config = Load("""
            { "globalSettings": { "reportFolder": "/home/user/results", "ScenariosSettings": [
              { "ScenarioName": "workflow", "LoadSimulationsSettings": [ { "KeepConstant": [5, "00:00:10"] } ] } ] } }
            """);
        config.ReportFolder.ShouldBe("/home/user/results");

        var written = Track(config.WriteFor("workflow", "/home/user/results/nbomber-1", int.MaxValue));

        var global = JsonNode.Parse(File.ReadAllText(written))!["globalSettings"]!.AsObject();
        global.Select(p => p.Key).ShouldBe(["ScenariosSettings", "ReportFolder"]);
        global["ReportFolder"]!.GetValue<string>().ShouldBe("/home/user/results/nbomber-1");
        global["ScenariosSettings"]![0]!["MaxFailCount"]!.GetValue<int>().ShouldBe(int.MaxValue);

        var own = Load("""
            { "GlobalSettings": { "ScenariosSettings": [ { "ScenarioName": "workflow", "MaxFailCount": 7 } ] } }
            """);
        var ownWritten = Track(own.WriteFor("workflow", "/tmp/x", int.MaxValue));
        JsonNode.Parse(File.ReadAllText(ownWritten))!["GlobalSettings"]!["ScenariosSettings"]![0]!["MaxFailCount"]!
            .GetValue<int>().ShouldBe(7);
    }

    private NBomberConfig Load(string json) => NBomberConfig.Load(Track(WriteTemp(json)));

    private static string WriteTemp(string json)
    {
        var path = Path.Combine(Path.GetTempPath(), $"nbomber-config-test-{Guid.NewGuid():N}.json");
        File.WriteAllText(path, json);
        return path;
    }

    private string Track(string path)
    {
        _files.Add(path);
        return path;
    }

    public void Dispose() => _files.ForEach(File.Delete);
}
