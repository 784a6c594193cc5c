using System.Globalization;

namespace OrderService.Load.Scenarios;

/// <summary>
/// The folders a run writes into. No command of the harness deletes or replaces a file it did not write, and NBomber
/// empties its report folder when a session starts: so a run writes only into a folder it created itself.
/// </summary>
public static class RunFolder
{
    /// <summary>A new folder in <paramref name="parent"/>: prefix-yyyyMMdd-HHmmss (UTC), -2, -3 when taken.</summary>
    public static string Create(string parent, string prefix)
    {
        var name = $"{prefix}-{DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture)}";
        for (var attempt = 1; ; attempt++)
        {
            var folder = Path.Combine(Path.GetFullPath(parent), attempt == 1 ? name : $"{name}-{attempt}");
            if (!Path.Exists(folder))
            {
                Directory.CreateDirectory(folder);
                return folder;
            }
        }
    }

    /// <summary><paramref name="requested"/> when it is new or empty, else a new folder in it.</summary>
    public static string ForRun(string requested, string prefix)
    {
        if (Directory.Exists(requested) && Directory.EnumerateFileSystemEntries(requested).Any())
        {
            return Create(requested, prefix);
        }

        Directory.CreateDirectory(requested);
        return Path.GetFullPath(requested);
    }
}
