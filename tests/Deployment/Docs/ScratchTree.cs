namespace OrderService.Deployment.Tests.Docs;

/// <summary>A repository-shaped folder of one test's own under the temp folder, deleted on dispose.</summary>
internal sealed class ScratchTree : IDisposable
{
    public string Root { get; } = Directory.CreateTempSubdirectory("orders-docs-tree-").FullName;

    /// <summary>Writes a file at a '/'-separated path below the root, making its folders.</summary>
    public void Write(string path, string text)
    {
        var full = Path.Combine([Root, .. path.Split('/')]);
        Directory.CreateDirectory(Path.GetDirectoryName(full)!);
        File.WriteAllText(full, text);
    }

    public void Dispose() => Directory.Delete(Root, recursive: true);
}
