using System.Text.Json;
using System.Text.RegularExpressions;
using OrderService.ServiceDefaults;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// Turns documented commands into <see cref="CommandRun"/>s: the built assembly (never `dotnet run`, which would build
/// again) with the documented arguments and environment, stopped before the slow part by a switch of the program's own,
/// so that the real parser and the real validation judge every flag and value. What cannot run here is counted in
/// <see cref="NotRun"/> with the reason; <see cref="CommandCheck"/> still holds it to the repository by name.
/// </summary>
internal sealed partial class CommandRuns(string root, string binaries, string scratch)
{
    public const string ShootoutPlan = "shoot-out plan (--plan-only)";
    public const string ServiceCheck = "service configuration check (--check-config)";
    public const string ReferencePage = "configuration reference (written to a scratch file)";
    public const string BenchmarkList = "benchmark list (--list flat)";
    public const string TestList = "test list (-list tests)";
    public const string ScriptSyntax = "script syntax (bash -n)";

    /// <summary>Every kind of run; each must meet at least one documented command, or the check could pass by finding nothing.</summary>
    public static readonly IReadOnlyList<string> Kinds = [ShootoutPlan, ServiceCheck, ReferencePage, BenchmarkList, TestList, ScriptSyntax];

    /// <summary>
    /// Stand-ins for the shell variables the pages fill from an engine's start.sh (its last line, as the pages say): a
    /// value of the same shape, so the program parses what a reader's shell would hand it. A variable with no stand-in
    /// is a problem, not a silent empty string.
    /// </summary>
    private static readonly Dictionary<string, string> StandIns = new(StringComparer.Ordinal)
    {
        ["conn"] = "Server=127.0.0.1,1433;User ID=babelfish_user;Password=12345678;TrustServerCertificate=true", // babelfish/start.sh
        ["uri"] = "mongodb://127.0.0.1:27017/?directConnection=true", // ferretdb/start.sh
        ["citus"] = "Host=127.0.0.1;Port=5450;Database=orders;Username=orders", // citus/start.sh
        ["babelfish"] = "Server=127.0.0.1,1433;User ID=babelfish_user;Password=12345678;TrustServerCertificate=true",
        ["ferretdb"] = "mongodb://127.0.0.1:27017/?directConnection=true",

        // The kept shoot-out reports name the run's --out and temporary folders so (tests/Load ReportPaths).
        ["OUT"] = Path.Combine(Path.GetTempPath(), "shootout-out"),
        ["TMPDIR"] = Path.GetTempPath().TrimEnd('/'),
    };

    /// <summary>dotnet run's own options that take a value; any other word before `--` goes to the program, as dotnet run forwards it.</summary>
    private static readonly HashSet<string> RunOptionsWithValue =
        ["--project", "-c", "--configuration", "-f", "--framework", "-r", "--runtime", "-a", "--arch", "--os", "-lp", "--launch-profile", "-p", "--property", "-v", "--verbosity", "--artifacts-path"];

    private static readonly HashSet<string> RunFlags = ["--no-build", "--no-restore", "--no-launch-profile", "--no-dependencies", "--interactive", "--force"];

    public List<CommandRun> Runs { get; } = [];

    /// <summary>Documented commands that are not run, per reason.</summary>
    public Dictionary<string, int> NotRun { get; } = [];

    /// <summary>Commands that could not even be turned into a run (a placeholder without a stand-in).</summary>
    public List<string> Problems { get; } = [];

    public void Add(CodeBlock block)
    {
        foreach (var documented in DocumentedCommands.In(block, root))
        {
            Add(documented);
        }
    }

    private void Add(DocumentedCommand documented)
    {
        var words = documented.Command.Words;
        if (words.Count == 0)
        {
            return;
        }

        var program = words[0];
        var args = words.Skip(1).ToList();
        if (program == "dotnet" && args.FirstOrDefault() == "run")
        {
            AddDotnetRun(documented, args.Skip(1).ToList());
        }
        else if (program == "dotnet" && args.FirstOrDefault() is { } dll && dll.EndsWith(".dll", StringComparison.Ordinal))
        {
            AddAssembly(documented, DocumentedCommands.Join(root, documented.Directory, dll), args.Skip(1).ToList());
        }
        else if (program == "dotnet" && args.FirstOrDefault() is "build" or "test" or "publish")
        {
            Skip("dotnet build/test/publish: the test run itself comes from that build; the project is name-checked");
        }
        else if (program == "docker")
        {
            Skip("docker compose: no Docker engine in the test run; the services are name-checked against docker-compose.yml");
        }
        else if (program.Contains('/', StringComparison.Ordinal) && !program.StartsWith('$'))
        {
            AddScript(documented, DocumentedCommands.Join(root, documented.Directory, program));
        }
    }

    private void AddDotnetRun(DocumentedCommand documented, List<string> args)
    {
        var project = documented.Directory;
        var programArgs = new List<string>();
        for (var i = 0; i < args.Count; i++)
        {
            if (args[i] == "--")
            {
                programArgs.AddRange(args.Skip(i + 1));
                break;
            }

            if (args[i] == "--project" && i + 1 < args.Count)
            {
                project = DocumentedCommands.Join(root, documented.Directory, args[i + 1]);
            }

            if (RunOptionsWithValue.Contains(args[i]))
            {
                i++;
            }
            else if (!RunFlags.Contains(args[i]))
            {
                programArgs.Add(args[i]);
            }
        }

        switch (project)
        {
            case "tests/Load":
                AddShootout(documented, programArgs);
                break;
            case "src/OrderService":
                // dotnet run applies the project's launch profile (Development), unless told not to.
                AddService(documented, programArgs, args.Contains("--no-launch-profile") ? [] : LaunchProfile());
                break;
            case "tests/Benchmarks":
                AddBenchmarks(documented, programArgs);
                break;
            case "tools/ConfigurationReference":
                AddReferencePage(documented, programArgs);
                break;
            default:
                Skip($"dotnet run of {project}: no checking form");
                break;
        }
    }

    private void AddAssembly(DocumentedCommand documented, string dll, List<string> args)
    {
        switch (DocumentedCommands.ArtifactPath().Match(dll) is { Success: true } match ? match.Groups["project"].Value : null)
        {
            case "OrderService":
                AddService(documented, args);
                break;
            case "Load":
                AddShootout(documented, args);
                break;
            case "OrderService.Benchmarks":
                AddBenchmarks(documented, args);
                break;
            case { } project:
                // Listing runs no test, so the variables the tests read (ORDERS_TEST_*) are left out.
                Add(TestList, documented, Assembly(project, Path.GetFileName(dll)), [.. args, "-list", "tests", "-noColor"], new Dictionary<string, string>(), root,
                    TestName());
                break;
            default:
                Problems.Add($"{documented.Where}: {dll} is not artifacts/bin/<project>/release/<assembly>.dll");
                break;
        }
    }

    private void AddShootout(DocumentedCommand documented, List<string> args)
    {
        // "--from-json report.json" is said from inside a run's folder: stand in the newest report kept in docs/shootout.
        if (args.IndexOf("--from-json") is var at and >= 0 && at + 1 < args.Count && !File.Exists(Path.Combine(root, documented.Directory, args[at + 1])))
        {
            args[at + 1] = Directory.EnumerateFiles(Path.Combine(root, "docs", "shootout"), "report.json", SearchOption.AllDirectories).Order(StringComparer.Ordinal).Last();
        }

        Add(ShootoutPlan, documented, Assembly("Load", "OrderService.Load.dll"), [.. args, "--plan-only"], Environment(documented), root, PlanPrinted());
    }

    /// <summary>The service with its documented settings and --check-config, from its own folder (appsettings.json beside it, as the image runs it).</summary>
    private void AddService(DocumentedCommand documented, List<string> args, Dictionary<string, string>? profile = null)
    {
        var service = Assembly("OrderService", "OrderService.dll");
        var environment = Environment(documented);
        foreach (var (name, value) in profile ?? [])
        {
            environment.TryAdd(name, value);
        }

        Add(ServiceCheck, documented, service, [.. args, ConfigurationCheck.Flag], environment,
            Path.GetDirectoryName(service)!, ConfigurationValid());
    }

    /// <summary>The environment variables of the first profile in the service's launchSettings.json.</summary>
    private Dictionary<string, string> LaunchProfile()
    {
        var path = Path.Combine(root, "src", "OrderService", "Properties", "launchSettings.json");
        using var settings = JsonDocument.Parse(File.ReadAllText(path));
        return settings.RootElement.GetProperty("profiles").EnumerateObject().First().Value
            .GetProperty("environmentVariables").EnumerateObject()
            .ToDictionary(p => p.Name, p => p.Value.GetString()!, StringComparer.Ordinal);
    }

    /// <summary>The configuration reference tool, writing its page to a scratch file instead of docs/.</summary>
    private void AddReferencePage(DocumentedCommand documented, List<string> args)
    {
        var tool = Assembly("ConfigurationReference", "OrderService.ConfigurationReference.dll");
        var page = Path.Combine(scratch, $"configuration-{Runs.Count}.md");
        Add(ReferencePage, documented, tool, args.Count == 1 ? [page] : args, Environment(documented), Path.GetDirectoryName(tool)!, PageWritten());
    }

    private void AddBenchmarks(DocumentedCommand documented, List<string> args)
    {
        if (!args.Contains("--filter"))
        {
            Skip("a benchmark verb (batch-filter-statements, allocations): it measures against PostgreSQL and the service, with no listing form");
            return;
        }

        Add(BenchmarkList, documented, Assembly("OrderService.Benchmarks", "OrderService.Benchmarks.dll"), [.. args, "--list", "flat"], Environment(documented), root, BenchmarkName());
    }

    private void AddScript(DocumentedCommand documented, string path)
    {
        var full = Path.GetFullPath(Path.Combine(root, path));
        if (!path.EndsWith(".sh", StringComparison.Ordinal))
        {
            Skip("a script that is not a .sh file (.ci/run, a Python helper): name-checked only");
        }
        else if (!File.Exists(full) && path.StartsWith("..", StringComparison.Ordinal))
        {
            Skip("a script beside the repository that this machine does not have; name-checked where it has");
        }
        else
        {
            Add(ScriptSyntax, documented, "bash", ["-n", full], new Dictionary<string, string>(), root, new Regex("^"));
        }
    }

    private void Add(string kind, DocumentedCommand documented, string program, List<string> args, Dictionary<string, string> environment, string directory, Regex expected)
    {
        if (program.EndsWith(".dll", StringComparison.Ordinal))
        {
            args = [program, .. args];
            program = "dotnet";
        }

        Runs.Add(new CommandRun(kind, documented.Where, program, [.. args.Select(a => Substitute(a, documented.Where))], environment, directory, expected));
    }

    /// <summary>The documented NAME=value assignments in front of the command, as the program's environment.</summary>
    private Dictionary<string, string> Environment(DocumentedCommand documented) =>
        documented.Command.Assignments.ToDictionary(a => a.Name, a => Substitute(a.Value, documented.Where), StringComparer.Ordinal);

    /// <summary>${NAME:-default} becomes the default; $NAME and ${NAME} a stand-in; $(...) cannot be stood in for.</summary>
    private string Substitute(string word, string where) => Variable().Replace(word, match =>
    {
        if (match.Groups["default"].Success)
        {
            return match.Groups["default"].Value;
        }

        if (StandIns.TryGetValue(match.Groups["name"].Value, out var standIn))
        {
            return standIn;
        }

        Problems.Add($"{where}: no stand-in for {match.Value} (add one to {nameof(CommandRuns)}.{nameof(StandIns)})");
        return match.Value;
    });

    private string Assembly(string project, string file) => Path.Combine(binaries, project, "release", file);

    private void Skip(string reason) => NotRun[reason] = NotRun.GetValueOrDefault(reason) + 1;

    [GeneratedRegex(@"\$\{(?<name>\w+):-(?<default>[^}]*)\}|\$\{(?<name>\w+)\}|\$(?<name>\w+)|\$\([^)]*\)")]
    private static partial Regex Variable();

    [GeneratedRegex(@"^Plan \(--plan-only", RegexOptions.Multiline)]
    private static partial Regex PlanPrinted();

    [GeneratedRegex("^" + ConfigurationCheck.Valid + @"\s*$", RegexOptions.Multiline)]
    private static partial Regex ConfigurationValid();

    [GeneratedRegex(@"^Wrote ", RegexOptions.Multiline)]
    private static partial Regex PageWritten();

    [GeneratedRegex(@"^OrderService\.Benchmarks\.[\w.]+", RegexOptions.Multiline)]
    private static partial Regex BenchmarkName();

    [GeneratedRegex(@"^OrderService\.[\w.]+\.\w+\s*$", RegexOptions.Multiline)]
    private static partial Regex TestName();
}
