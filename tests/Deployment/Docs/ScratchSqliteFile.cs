using Microsoft.Data.Sqlite;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>A SQLite file of one test's own under the temp folder; disposing closes the pools and deletes it with its WAL files.</summary>
internal sealed class ScratchSqliteFile : IDisposable
{
    private readonly string _path = Path.Combine(Path.GetTempPath(), $"orders-docs-{Guid.NewGuid():N}.db");

    public string ConnectionString => $"Data Source={_path}";

    public void Dispose()
    {
        SqliteConnection.ClearAllPools();
        foreach (var file in Directory.GetFiles(Path.GetTempPath(), Path.GetFileName(_path) + "*"))
        {
            File.Delete(file);
        }
    }
}
