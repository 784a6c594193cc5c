using System.Text.RegularExpressions;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// Checks the commands of a page against the repository, so that a renamed script, project, test class, shoot-out flag,
/// configuration key or compose service fails the build rather than the reader. Nothing here runs the commands: each
/// is held to what the repository declares (files, option declarations, class declarations, options classes);
/// <see cref="CommandRuns"/> then runs those that can run in the test run.
/// </summary>
internal sealed partial class CommandCheck(string root)
{
    private const string ServiceProject = "src/OrderService";
    private const string LoadProject = "tests/Load";

    /// <summary>The host's own command-line switches, which bind no options class, and the service's one-shot switches.</summary>
    private static readonly string[] HostSwitches = ["--urls", "--environment", "--contentRoot", "--applicationName", OrderService.ServiceDefaults.ConfigurationCheck.Flag];

    private readonly Lazy<HashSet<string>> _loadOptions = new(() => LoadOptions(root));
    private readonly Lazy<HashSet<string>> _composeServices = new(() => ComposeServices(root));
    private readonly Lazy<string> _variablesRead = new(() => VariablesCorpus(root));

    /// <summary>How many things of each kind were checked (a test asserts the check did not pass by checking nothing).</summary>
    public Dictionary<string, int> Checked { get; } = [];

    public List<string> Problems { get; } = [];

    public void Check(CodeBlock block)
    {
        foreach (var (_, command, cwd) in DocumentedCommands.In(block, root))
        {
            var where = $"{block.Page}:{block.Line}: {string.Join(' ', command.Words)}";
            foreach (var (name, _) in command.Assignments)
            {
                CheckVariable(name, where);
            }

            if (command.Words.Count == 0)
            {
                continue;
            }

            var program = command.Words[0];
            var args = command.Words.Skip(1).ToList();
            if (program == "cd" && args.Count == 1)
            {
                Expect(Directory.Exists(Full(Join(cwd, args[0]))), "directory", where, $"no folder {Join(cwd, args[0])}");
            }
            else if (program == "dotnet")
            {
                CheckDotnet(cwd, args, where);
            }
            else if (program == "docker" && args.FirstOrDefault() == "compose")
            {
                CheckCompose(args.Skip(1).ToList(), where);
            }
            else if (program.Contains('/', StringComparison.Ordinal) && !program.StartsWith('$'))
            {
                CheckScript(Join(cwd, program), where);
            }
        }
    }

    private void CheckDotnet(string cwd, List<string> args, string where)
    {
        var verb = args.FirstOrDefault() ?? "";
        if (verb == "run")
        {
            var at = args.IndexOf("--project");
            var project = at >= 0 && at + 1 < args.Count ? Join(cwd, args[at + 1]) : cwd;
            Expect(IsProject(project), "project", where, $"no project at {project}");
            var appArgs = args.IndexOf("--") is var dashes and >= 0 ? args[(dashes + 1)..] : [];
            if (project == LoadProject)
            {
                foreach (var flag in appArgs.Where(a => a.StartsWith('-') && !double.TryParse(a, out _)))
                {
                    Expect(_loadOptions.Value.Contains(flag), "shoot-out flag", where, $"tests/Load declares no option {flag}");
                }
            }
            else if (project == ServiceProject)
            {
                foreach (var flag in args.Where(a => a.StartsWith("--", StringComparison.Ordinal) && (a.Contains(':', StringComparison.Ordinal) || appArgs.Contains(a))))
                {
                    var key = flag[2..].Split('=')[0];
                    Expect(key.Contains(':', StringComparison.Ordinal) ? AppConfiguration.IsKnown(key) : HostSwitches.Contains(flag), "configuration key", where, $"the service reads no setting {key}");
                }
            }
        }
        else if (verb is "build" or "test" or "publish")
        {
            var target = args.Skip(1).FirstOrDefault(a => !a.StartsWith('-'));
            Expect(target is not null && (File.Exists(Full(Join(cwd, target))) || IsProject(Join(cwd, target))), "project", where, $"no project {target}");
        }
        else if (verb.EndsWith(".dll", StringComparison.Ordinal))
        {
            CheckTestAssembly(verb, args.Skip(1).ToList(), where);
        }
    }

    /// <summary>artifacts/bin/&lt;project&gt;/release/&lt;assembly&gt;.dll: the project exists and builds that assembly; -class names one of its classes.</summary>
    private void CheckTestAssembly(string dll, List<string> args, string where)
    {
        var match = DocumentedCommands.ArtifactPath().Match(dll);
        if (!match.Success)
        {
            Problems.Add($"{where}: {dll} is not artifacts/bin/<project>/release/<assembly>.dll");
            return;
        }

        var projectName = match.Groups["project"].Value;
        var csproj = Directory.EnumerateFiles(Full("tests"), projectName + ".csproj", SearchOption.AllDirectories).FirstOrDefault();
        if (csproj is null)
        {
            Problems.Add($"{where}: no project {projectName}.csproj under tests/");
            return;
        }

        var assembly = AssemblyName().Match(File.ReadAllText(csproj)) is { Success: true } declared ? declared.Groups[1].Value : projectName;
        Expect(assembly == match.Groups["assembly"].Value, "test assembly", where, $"{projectName}.csproj builds {assembly}.dll");
        for (var i = 0; i + 1 < args.Count; i++)
        {
            if (args[i] == "-class")
            {
                var pattern = new Regex("^" + Regex.Escape(args[i + 1]).Replace(@"\*", ".*", StringComparison.Ordinal) + "$", RegexOptions.IgnoreCase);
                var classes = ClassNames(Path.GetDirectoryName(csproj)!);
                Expect(classes.Any(pattern.IsMatch), "test class filter", where, $"-class {args[i + 1]} matches no class of {projectName}");
            }
        }
    }

    private void CheckCompose(List<string> args, string where)
    {
        var verb = args.FirstOrDefault(a => !a.StartsWith('-'));
        if (verb is not ("up" or "logs" or "stop" or "start" or "restart"))
        {
            return;
        }

        foreach (var service in args.SkipWhile(a => a != verb).Skip(1).Where(a => !a.StartsWith('-')))
        {
            Expect(_composeServices.Value.Contains(service), "compose service", where, $"docker-compose.yml has no service {service}");
        }
    }

    private void CheckScript(string path, string where)
    {
        var full = Full(path);
        if (!path.StartsWith("..", StringComparison.Ordinal) || File.Exists(full))
        {
            Expect(File.Exists(full) && (OperatingSystem.IsWindows() || (File.GetUnixFileMode(full) & UnixFileMode.UserExecute) != 0), "script", where, $"{path} is missing or not executable");
        }
        else
        {
            // Beside the repository (../shared): checked where that folder exists, as on the machines the test run uses.
            Expect(!Directory.Exists(Path.GetDirectoryName(Path.GetDirectoryName(full))), "script", where, $"{path} is missing");
        }
    }

    /// <summary>NAME__KEY=... is a setting the app reads; ORDERS_*=... a variable the scripts, tests or compose file read.</summary>
    private void CheckVariable(string name, string where)
    {
        if (name.Contains("__", StringComparison.Ordinal) || name.StartsWith("ASPNETCORE_", StringComparison.Ordinal) || name.StartsWith("OTEL_", StringComparison.Ordinal))
        {
            Expect(AppConfiguration.IsKnown(name), "configuration key", where, $"the service reads no setting {name}");
        }
        else if (name.StartsWith("ORDERS_", StringComparison.Ordinal))
        {
            Expect(Regex.IsMatch(_variablesRead.Value, @"\b" + name + @"\b"), "environment variable", where, $"nothing in scripts/, tests/ or docker-compose.yml reads {name}");
        }
    }

    private void Expect(bool ok, string kind, string where, string problem)
    {
        Checked[kind] = Checked.GetValueOrDefault(kind) + 1;
        if (!ok)
        {
            Problems.Add($"{where}: {problem}");
        }
    }

    private bool IsProject(string path) =>
        (File.Exists(Full(path)) && path.EndsWith(".csproj", StringComparison.Ordinal)) ||
        (Directory.Exists(Full(path)) && Directory.EnumerateFiles(Full(path), "*.csproj").Any());

    private string Full(string relative) => Path.GetFullPath(Path.Combine(root, relative));

    private string Join(string cwd, string path) => DocumentedCommands.Join(root, cwd, path);

    /// <summary>The option names tests/Load declares (new Option&lt;T&gt;("--name", "-alias")), plus System.CommandLine's own.</summary>
    private static HashSet<string> LoadOptions(string root)
    {
        var names = new HashSet<string>(StringComparer.Ordinal) { "--help", "-h", "-?", "--version" };
        foreach (var file in SourceFiles(Path.Combine(root, LoadProject)))
        {
            foreach (Match declaration in OptionDeclaration().Matches(File.ReadAllText(file)))
            {
                names.UnionWith(declaration.Groups["name"].Captures.Select(c => c.Value));
            }
        }

        return names;
    }

    private static HashSet<string> ComposeServices(string root) =>
        [.. Yaml.Documents(File.ReadAllText(Path.Combine(root, "docker-compose.yml")))[0].Entries("services").Select(s => s.Key)];

    /// <summary>What reads environment variables: the scripts, the tests (not these doc checks, which name examples), the compose file.</summary>
    private static string VariablesCorpus(string root) => string.Join('\n',
        Directory.EnumerateFiles(Path.Combine(root, "scripts"))
            .Concat(SourceFiles(Path.Combine(root, "tests")).Where(f => Path.GetDirectoryName(f) != Path.Combine(root, "tests", "Deployment", "Docs")))
            .Append(Path.Combine(root, "docker-compose.yml")).Select(File.ReadAllText));

    /// <summary>Namespace-qualified names of the classes declared in a project's source (file-scoped namespaces).</summary>
    private static List<string> ClassNames(string projectFolder) =>
        [.. SourceFiles(projectFolder).SelectMany(file =>
        {
            var text = File.ReadAllText(file);
            var ns = Namespace().Match(text) is { Success: true } m ? m.Groups[1].Value + "." : "";
            return ClassDeclaration().Matches(text).Select(c => ns + c.Groups[1].Value);
        })];

    private static IEnumerable<string> SourceFiles(string folder) =>
        Directory.EnumerateFiles(folder, "*.cs", SearchOption.AllDirectories)
            .Where(f => !f.Split(Path.DirectorySeparatorChar).Any(part => part is "bin" or "obj" or "artifacts" or "node_modules"));

    [GeneratedRegex(@"new\s+Option<[^(]*>\s*\(\s*(?:""(?<name>[^""]+)""\s*,?\s*)+")]
    private static partial Regex OptionDeclaration();

    [GeneratedRegex(@"<AssemblyName>([^<]+)</AssemblyName>")]
    private static partial Regex AssemblyName();

    [GeneratedRegex(@"^namespace\s+([\w.]+)\s*;", RegexOptions.Multiline)]
    private static partial Regex Namespace();

    [GeneratedRegex(@"\bclass\s+(\w+)")]
    private static partial Regex ClassDeclaration();
}
