using OrderService.Load.Scenarios;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Load;

public sealed class RunFolderTests : IDisposable
{
    private readonly string _root = Path.Combine(Path.GetTempPath(), $"run-folder-{Guid.NewGuid():N}");

    [Fact]
    public void A_new_or_empty_out_folder_is_the_run_s_folder()
    {
        var empty = Directory.CreateDirectory(Path.Combine(_root, "empty")).FullName;

        RunFolder.ForRun(empty, "shootout").ShouldBe(empty);
        RunFolder.ForRun(Path.Combine(_root, "new"), "shootout").ShouldBe(Path.Combine(_root, "new"));
        Directory.Exists(Path.Combine(_root, "new")).ShouldBeTrue();
    }

    [Fact]
    public void An_out_folder_that_holds_files_gets_a_new_folder_inside_it_each_time()
    {
        Directory.CreateDirectory(_root);
        File.WriteAllText(Path.Combine(_root, "notes.txt"), "mine");

        var first = RunFolder.ForRun(_root, "shootout");
        var second = RunFolder.Create(_root, "shootout");

        Path.GetDirectoryName(first).ShouldBe(_root);
        Path.GetFileName(first).ShouldStartWith("shootout-");
        second.ShouldNotBe(first);
        Directory.EnumerateFileSystemEntries(first).ShouldBeEmpty();
        File.ReadAllText(Path.Combine(_root, "notes.txt")).ShouldBe("mine");
    }

    public void Dispose()
    {
        if (Directory.Exists(_root))
        {
            Directory.Delete(_root, recursive: true);
        }
    }
}
