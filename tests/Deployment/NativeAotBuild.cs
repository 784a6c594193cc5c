using System.Runtime.InteropServices;
using CliWrap;
using CliWrap.Buffered;
using Xunit;

namespace OrderService.Deployment.Tests;

/// <summary>
/// The service published as Native AOT (<c>dotnet publish -p:PublishAot=true</c>), once for the test class that uses it:
/// about three minutes on two cores. The AOT compiler links with clang; without one on PATH the build is not made and
/// every test that needs it reports skipped, with the reason (scripts/test.sh installs clang where it can).
/// </summary>
public sealed class NativeAotBuild : IAsyncLifetime
{
    private readonly string _scratch = Directory.CreateTempSubdirectory("orders-native-aot-").FullName;

    /// <summary>The native executable, in the folder it was published to (its appsettings.json beside it).</summary>
    public string Executable => Path.Combine(Folder, "OrderService");

    public string Folder => Path.Combine(_scratch, "out");

    /// <summary>Why there is no build, when there is none.</summary>
    public string? SkipReason { get; private set; }

    public async ValueTask InitializeAsync()
    {
        if (Linker() is not { } linker)
        {
            SkipReason = "Native AOT links with clang, and none is on PATH (apt-get install clang; scripts/test.sh does so when it runs as root).";
            return;
        }

        // The native tool chain leaves empty folders in the temporary directory; they go with the scratch folder.
        var temporary = Directory.CreateDirectory(Path.Combine(_scratch, "tmp")).FullName;
        var publish = await Cli.Wrap("dotnet")
            .WithArguments([
                "publish", Repository.PathOf("src", "OrderService", "OrderService.csproj"), "-c", "Release",
                "-r", RuntimeInformation.RuntimeIdentifier, "-p:PublishAot=true", $"-p:CppCompilerAndLinker={linker}",
                "--artifacts-path", Path.Combine(_scratch, "build"), "-o", Folder, "-nologo"])
            .WithEnvironmentVariables(variables => variables.Set("TMPDIR", temporary))
            .WithValidation(CommandResultValidation.None)
            .ExecuteBufferedAsync();
        if (publish.ExitCode != 0 || !File.Exists(Executable))
        {
            throw new InvalidOperationException($"The Native AOT publish failed (exit code {publish.ExitCode}):\n" +
                $"{publish.StandardOutput}\n{publish.StandardError}");
        }
    }

    public ValueTask DisposeAsync()
    {
        try
        {
            Directory.Delete(_scratch, recursive: true);
        }
        catch (IOException)
        {
        }

        return ValueTask.CompletedTask;
    }

    public void SkipUnlessBuilt()
    {
        if (SkipReason is { } reason)
        {
            Assert.Skip(reason);
        }
    }

    /// <summary>clang, or Debian's versioned clang-N (the newest) when there is no plain clang.</summary>
    private static string? Linker()
    {
        var folders = (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries).Where(Directory.Exists).ToList();
        if (folders.Any(folder => File.Exists(Path.Combine(folder, "clang"))))
        {
            return "clang";
        }

        return folders
            .SelectMany(folder => Directory.EnumerateFiles(folder, "clang-*"))
            .Select(Path.GetFileName)
            .Where(name => name is not null && int.TryParse(name["clang-".Length..], out _))
            .OrderByDescending(name => int.Parse(name!["clang-".Length..], System.Globalization.CultureInfo.InvariantCulture))
            .FirstOrDefault();
    }
}
