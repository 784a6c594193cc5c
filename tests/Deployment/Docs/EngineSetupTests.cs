using System.Text.RegularExpressions;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// One way to set up each test engine. The shoot-out harness gives a service on Babelfish or FerretDB its timeouts
/// (and Babelfish its pool size) by itself; every documented command that runs the service on an engine started from
/// ../shared/engines must pass the same values, and the pages start the engines the same way (its default folder,
/// the connection string from start.sh's last line). The harness's values are read from its source.
/// </summary>
public sealed partial class EngineSetupTests
{
    private static readonly string[] Pages = ["README.md", "docs/getting-started.md", "docs/stores/babelfish.md", "docs/stores/ferretdb.md", "docs/stores/sqlserver.md", "docs/stores/mongodb.md", "docs/shootout/README.md"];

    public static TheoryData<string, string, string> Engines => new()
    {
        { "babelfish", "SqlServer", "BabelfishSettings" },
        { "ferretdb", "MongoDb", "FerretDbSettings" },
    };

    [Theory]
    [MemberData(nameof(Engines))]
    public void A_documented_service_on_the_engine_runs_with_the_harness_s_settings(string engine, string provider, string harnessSettings)
    {
        var expected = HarnessSettings(harnessSettings).Select(s => $"{s.Key.Replace(":", "__", StringComparison.Ordinal)}={s.Value}").ToList();
        if (engine == "babelfish")
        {
            expected.Add($"Max Pool Size={HarnessBabelfishPool()}");
        }

        var runs = Pages.SelectMany(page => MarkdownPage.Parse(page, Repository.Read(page)).CodeBlocks)
            .Where(b => b.Text.Contains($"engines/{engine}/start.sh", StringComparison.Ordinal)
                && b.Text.Contains($"Store__Provider={provider}", StringComparison.Ordinal)
                && b.Text.Contains("src/OrderService", StringComparison.Ordinal))
            .ToList();

        runs.ShouldNotBeEmpty($"no page shows the service on {engine}");
        foreach (var run in runs)
        {
            foreach (var setting in expected)
            {
                run.Text.ShouldContain(setting, Case.Sensitive, $"{run.Page}:{run.Line} runs the service on {engine} without the harness's {setting}");
            }
        }
    }

    [Fact]
    public void Every_page_starts_an_engine_the_same_way()
    {
        var calls = Pages.SelectMany(page => Repository.Read(page).Split('\n').Select((line, index) => (page, line: index + 1, text: line)))
            .Where(l => StartCall().IsMatch(l.text))
            .ToList();

        calls.ShouldNotBeEmpty();
        foreach (var (page, line, text) in calls)
        {
            StartCall().Match(text).Groups["rest"].Value.ShouldStartWith(" | tail -n 1", customMessage:
                $"{page}:{line} calls start.sh another way than 'start.sh | tail -n 1' (its default folder, the string from its last line)");
        }
    }

    private static Dictionary<string, string> HarnessSettings(string field)
    {
        var source = Repository.Read("tests", "Load", "Shootout", "EngineProbe.cs");
        var start = source.IndexOf($" {field} =", StringComparison.Ordinal);
        start.ShouldBeGreaterThan(0, $"tests/Load/Shootout/EngineProbe.cs has no {field}");
        var body = source[start..source.IndexOf("};", start, StringComparison.Ordinal)];
        return SettingEntry().Matches(body).ToDictionary(m => m.Groups["key"].Value, m => m.Groups["value"].Value);
    }

    private static string HarnessBabelfishPool() =>
        BabelfishPool().Match(Repository.Read("tests", "Load", "Shootout", "SqlServerTarget.cs")).Groups["size"].Value;

    [GeneratedRegex(@"\[""(?<key>[A-Za-z:]+)""\]\s*=\s*""(?<value>[^""]*)""")]
    private static partial Regex SettingEntry();

    [GeneratedRegex(@"const int BabelfishPool = (?<size>\d+);")]
    private static partial Regex BabelfishPool();

    [GeneratedRegex(@"engines/(babelfish|ferretdb)/start\.sh(?<rest>.*)$")]
    private static partial Regex StartCall();
}
