using System.Runtime.InteropServices;
using Microsoft.Data.Sqlite;

namespace OrderService.Load.Shootout;

/// <summary>Describes the machine and the software for the report header, so numbers are read in context.</summary>
public static class MachineProbe
{
    public static async Task<MachineInfo> DescribeAsync(string repositoryRoot)
    {
        var versions = new Dictionary<string, string>
        {
            ["OrderService commit"] = await GitCommitAsync(repositoryRoot).ConfigureAwait(false),
            ["SQLite"] = SqliteVersion(),
            ["Npgsql"] = typeof(Npgsql.NpgsqlConnection).Assembly.GetName().Version?.ToString() ?? "?",
        };
        return new MachineInfo(
            Environment.MachineName,
            Environment.ProcessorCount,
            MemoryMegabytes(),
            CpuModel(),
            RuntimeInformation.OSDescription,
            RuntimeInformation.FrameworkDescription,
            versions);
    }

    private static string SqliteVersion()
    {
        using var connection = new SqliteConnection("Data Source=:memory:");
        connection.Open();
        using var command = connection.CreateCommand();
        command.CommandText = "select sqlite_version()";
        return (string)command.ExecuteScalar()!;
    }

    private static long MemoryMegabytes()
    {
        var line = File.Exists("/proc/meminfo") ? File.ReadLines("/proc/meminfo").FirstOrDefault(l => l.StartsWith("MemTotal:", StringComparison.Ordinal)) : null;
        var kilobytes = line?.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1];
        return kilobytes is null ? GC.GetGCMemoryInfo().TotalAvailableMemoryBytes / (1024 * 1024) : long.Parse(kilobytes, System.Globalization.CultureInfo.InvariantCulture) / 1024;
    }

    private static string CpuModel()
    {
        var line = File.Exists("/proc/cpuinfo") ? File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal)) : null;
        return line?.Split(':', 2)[1].Trim() ?? RuntimeInformation.ProcessArchitecture.ToString();
    }

    private static async Task<string> GitCommitAsync(string repositoryRoot)
    {
        try
        {
            var result = await Shell.RunAsync("git", ["-C", repositoryRoot, "rev-parse", "--short", "HEAD"], TimeSpan.FromSeconds(10)).ConfigureAwait(false);
            var dirty = await Shell.RunAsync("git", ["-C", repositoryRoot, "status", "--porcelain", "--", "src"], TimeSpan.FromSeconds(10)).ConfigureAwait(false);
            return result.ExitCode == 0 ? result.Output.Trim() + (dirty.Output.Trim().Length > 0 ? " (src modified)" : "") : "unknown";
        }
        catch (System.ComponentModel.Win32Exception)
        {
            return "unknown (no git)";
        }
    }
}
