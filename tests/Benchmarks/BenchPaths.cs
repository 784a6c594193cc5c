namespace OrderService.Benchmarks;

/// <summary>Where the benchmarks keep what they build once (seeded databases): artifacts/benchdata in the repository.</summary>
public static class BenchPaths
{
    public static string RepositoryRoot()
    {
        var directory = new DirectoryInfo(AppContext.BaseDirectory);
        while (directory is not null && !File.Exists(Path.Combine(directory.FullName, "OrderService.sln")))
        {
            directory = directory.Parent;
        }

        return directory?.FullName ?? throw new InvalidOperationException($"No OrderService.sln above {AppContext.BaseDirectory}.");
    }

    public static string DataDirectory()
    {
        var data = Path.Combine(RepositoryRoot(), "artifacts", "benchdata");
        Directory.CreateDirectory(data);
        return data;
    }
}
