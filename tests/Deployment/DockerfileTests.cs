using System.Text.RegularExpressions;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests;

/// <summary>
/// The Dockerfiles' build steps, statically: ./Dockerfile (ReadyToRun, the image compose and Kubernetes run) and
/// ./Dockerfile.native (Native AOT). ContainerImageTests builds and runs each where Docker can.
/// </summary>
public sealed partial class DockerfileTests
{
    [Theory]
    [MemberData(nameof(Dockerfile.Files), MemberType = typeof(Dockerfile))]
    public void The_publish_line_builds_the_same_project_with_the_same_options_as_its_docs_page_s(string file)
    {
        var dockerfile = Dockerfile.Named(file);
        var documented = DocumentedPublishLine().Matches(Repository.Read("docs", dockerfile.PublishLinePage))
            .Select(m => m.Groups["command"].Value.Trim()).Distinct().ToList();

        documented.Count.ShouldBe(1, $"docs/{dockerfile.PublishLinePage} shows one publish line for the service");
        What(dockerfile.Run("dotnet publish").Replace("$RID", "linux-x64", StringComparison.Ordinal)).ShouldBe(What(documented[0]));
    }

    [Theory]
    [MemberData(nameof(Dockerfile.Files), MemberType = typeof(Dockerfile))]
    public void The_restore_knows_every_property_the_no_restore_publish_needs_from_it(string file)
    {
        // A --no-restore publish can only use what the restore fetched: the runtime identifier's packs, and the
        // compiler's pack, which the restore fetches only when it sees the property: crossgen2 for ReadyToRun
        // (NETSDK1094 without it), the ILCompiler for Native AOT.
        var dockerfile = Dockerfile.Named(file);
        var publish = Tokens(dockerfile.Run("dotnet publish"));
        var restore = Tokens(dockerfile.Run("dotnet restore"));

        publish.ShouldContain("--no-restore");
        restore.ShouldContain(publish[publish.IndexOf("-r") + 1], "the same runtime identifier");
        publish.ShouldContain(dockerfile.Compilation);
        restore.ShouldContain(dockerfile.Compilation);
    }

    [Theory]
    [MemberData(nameof(Dockerfile.Files), MemberType = typeof(Dockerfile))]
    public void The_restore_layer_copies_every_project_the_service_builds_from(string file)
    {
        // A project file the layer leaves out fails the restore (the service's reference points at nothing), and
        // only in the image build: each engine's project must be copied as it is added.
        var copied = ProjectCopy().Matches(Dockerfile.Named(file).Text).Select(m => m.Groups["path"].Value).ToHashSet(StringComparer.Ordinal);

        ProjectsOf("src/OrderService/OrderService.csproj").ShouldBeSubsetOf(copied);
    }

    /// <summary>The project and every project it references, transitively, as paths from the repository root.</summary>
    private static HashSet<string> ProjectsOf(string project)
    {
        var found = new HashSet<string>(StringComparer.Ordinal);
        var pending = new Stack<string>([project]);
        while (pending.TryPop(out var current))
        {
            if (!found.Add(current))
            {
                continue;
            }

            var folder = Path.GetDirectoryName(current)!;
            foreach (Match reference in ProjectReference().Matches(Repository.Read(current)))
            {
                var full = Path.GetFullPath(Path.Combine(Repository.Root, folder, reference.Groups["path"].Value));
                pending.Push(Path.GetRelativePath(Repository.Root, full).Replace('\\', '/'));
            }
        }

        return found;
    }

    [Theory]
    [MemberData(nameof(Dockerfile.Files), MemberType = typeof(Dockerfile))]
    public void The_image_runs_as_the_non_root_app_user_and_keeps_SQLite_on_a_volume(string file)
    {
        var dockerfile = Dockerfile.Named(file);
        var text = dockerfile.Text;

        text.ShouldContain("USER $APP_UID");
        text.ShouldContain("VOLUME [\"/app/data\"]");
        text.ShouldContain("chown \"$APP_UID:$APP_UID\" /app/data");
        dockerfile.HttpPort.ShouldBe("8080");
    }

    [Fact]
    public void The_native_image_starts_the_native_executable_on_a_base_without_the_dotnet_runtime()
    {
        var text = Dockerfile.Native.Text;
        var final = text[text.LastIndexOf("\nFROM ", StringComparison.Ordinal)..];

        final.ShouldContain("FROM mcr.microsoft.com/dotnet/runtime-deps:");
        final.ShouldContain("ENTRYPOINT [\"./OrderService\"]");
    }

    /// <summary>The project and the options that decide what is built: not where it goes (-o) or whether it restores first.</summary>
    private static List<string> What(string command)
    {
        var tokens = Tokens(command);
        var outputAt = tokens.IndexOf("-o");
        if (outputAt >= 0)
        {
            tokens.RemoveRange(outputAt, 2);
        }

        tokens.Remove("--no-restore");
        var project = tokens[2].EndsWith(".csproj", StringComparison.Ordinal) ? tokens[2] : $"{tokens[2]}/{Path.GetFileName(tokens[2])}.csproj";
        return [tokens[0], tokens[1], project, .. tokens.Skip(3).Order(StringComparer.Ordinal)];
    }

    private static List<string> Tokens(string command) => [.. command.Split(' ', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)];

    // The publish line names the service's project; a short mention elsewhere (`dotnet publish -r linux-x64` in the
    // cold-start notes) is prose, not a second way to build the image's contents.
    // Written inline in backticks or as a line of its own in a code block.
    [GeneratedRegex(@"(?m)(?:^|`)(?<command>dotnet publish src/OrderService[^`\r\n]+)")]
    private static partial Regex DocumentedPublishLine();

    [GeneratedRegex(@"^COPY\s+(?<path>\S+\.csproj)\s", RegexOptions.Multiline)]
    private static partial Regex ProjectCopy();

    [GeneratedRegex(@"<ProjectReference\s+Include=""(?<path>[^""]+)""")]
    private static partial Regex ProjectReference();
}
