using System.Text.RegularExpressions;
using Xunit;

namespace OrderService.Deployment.Tests;

/// <summary>What one of the repository's Dockerfiles says, read the way the tests need it.</summary>
internal sealed partial class Dockerfile
{
    /// <summary>The UID of the non-root "app" user that the mcr.microsoft.com/dotnet images create (their APP_UID); the image test checks it.</summary>
    public const string AppUid = "1654";

    /// <summary>./Dockerfile: the ReadyToRun build with all four stores, the image compose and Kubernetes run.</summary>
    public static readonly Dockerfile Default = new("Dockerfile", "operations.md", "-p:PublishReadyToRun=true");

    /// <summary>./Dockerfile.native: the Native AOT build, SQLite and PostgreSQL only.</summary>
    public static readonly Dockerfile Native = new("Dockerfile.native", "cold-start.md", "-p:PublishAot=true");

    private Dockerfile(string fileName, string publishLinePage, string compilation)
    {
        FileName = fileName;
        PublishLinePage = publishLinePage;
        Compilation = compilation;
    }

    /// <summary>Both, for a theory: <c>[MemberData(nameof(Dockerfile.Files), MemberType = typeof(Dockerfile))]</c>.</summary>
    public static TheoryData<string> Files => [Default.FileName, Native.FileName];

    public string FileName { get; }

    /// <summary>The page in docs/ that shows the publish line this file's publish must equal.</summary>
    public string PublishLinePage { get; }

    /// <summary>The publish property that decides how the code is compiled; the restore must be given it too.</summary>
    public string Compilation { get; }

    public string Text => Repository.Read(FileName);

    /// <summary>The port the image's ASP.NET Core listens on (ENV ASPNETCORE_HTTP_PORTS).</summary>
    public string HttpPort => HttpPortLine().Match(Text) is { Success: true } match
        ? match.Groups["port"].Value
        : throw new InvalidOperationException($"{FileName} sets no ASPNETCORE_HTTP_PORTS.");

    public static Dockerfile Named(string fileName) =>
        fileName == Default.FileName ? Default
        : fileName == Native.FileName ? Native
        : throw new ArgumentOutOfRangeException(nameof(fileName), fileName, "not one of the repository's Dockerfiles");

    /// <summary>A RUN instruction's command, its continuation lines joined, e.g. the "dotnet publish" one.</summary>
    public string Run(string command)
    {
        var joined = Text.Replace("\\\n", " ", StringComparison.Ordinal);
        return joined.Split('\n').Select(l => l.Trim()).Single(l => l.StartsWith($"RUN {command}", StringComparison.Ordinal))[4..];
    }

    [GeneratedRegex(@"^ENV\s+ASPNETCORE_HTTP_PORTS=(?<port>\d+)\s*$", RegexOptions.Multiline)]
    private static partial Regex HttpPortLine();
}
