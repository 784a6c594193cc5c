using System.Text.RegularExpressions;

namespace OrderService.Deployment.Tests;

/// <summary>What the repository's Dockerfile says, read the way the tests need it.</summary>
internal static partial class Dockerfile
{
    /// <summary>The UID of the non-root "app" user that the mcr.microsoft.com/dotnet images create (their APP_UID); the image test checks it.</summary>
    public const string AppUid = "1654";

    public static string Text => Repository.Read("Dockerfile");

    /// <summary>The port the image's ASP.NET Core listens on (ENV ASPNETCORE_HTTP_PORTS).</summary>
    public static string HttpPort => HttpPortLine().Match(Text) is { Success: true } match
        ? match.Groups["port"].Value
        : throw new InvalidOperationException("The Dockerfile sets no ASPNETCORE_HTTP_PORTS.");

    /// <summary>A RUN instruction's command, its continuation lines joined, e.g. the "dotnet publish" one.</summary>
    public static string Run(string command)
    {
        var joined = Text.Replace("\\\n", " ", StringComparison.Ordinal);
        return joined.Split('\n').Select(l => l.Trim()).Single(l => l.StartsWith($"RUN {command}", StringComparison.Ordinal))[4..];
    }

    [GeneratedRegex(@"^ENV\s+ASPNETCORE_HTTP_PORTS=(?<port>\d+)\s*$", RegexOptions.Multiline)]
    private static partial Regex HttpPortLine();
}
