using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// Every relative link of every Markdown page the repository tracks resolves: to a file or folder inside the
/// repository (a clone has nothing beside it), and, with a #fragment, to a heading of that page by GitHub's anchor
/// rules. Web links are not fetched: the test run has no network.
/// </summary>
public sealed class MarkdownLinkTests
{
    [Fact]
    public void Every_relative_link_and_anchor_in_the_repository_s_pages_resolves()
    {
        var pages = MarkdownPage.TrackedPages(Repository.Root);
        pages.ShouldContain("README.md");
        pages.ShouldContain("docs/README.md");

        var broken = LinkCheck.Broken(Repository.Root, pages);

        broken.ShouldBeEmpty("broken links:\n" + string.Join('\n', broken));
    }

    [Fact]
    public void The_docs_index_links_every_page_under_docs()
    {
        var index = MarkdownPage.Parse("docs/README.md", Repository.Read("docs", "README.md"));
        var linked = index.Links.Select(l => LinkCheck.Resolve("docs/README.md", l.Target).Path).ToHashSet(StringComparer.Ordinal);
        var pages = MarkdownPage.TrackedPages(Repository.Root)
            .Where(p => p.StartsWith("docs/", StringComparison.Ordinal) && p != "docs/README.md")
            .Where(p => !p.StartsWith("docs/shootout/", StringComparison.Ordinal) || p == "docs/shootout/README.md");

        pages.Where(p => !linked.Contains(p)).ShouldBeEmpty("pages docs/README.md does not list");
    }

    [Fact]
    public void A_missing_file_a_missing_anchor_and_a_link_out_of_the_repository_are_each_reported()
    {
        var root = Directory.CreateTempSubdirectory("orders-links-").FullName;
        try
        {
            Directory.CreateDirectory(Path.Combine(root, "docs"));
            File.WriteAllText(Path.Combine(root, "docs", "a.md"), "# A page\n\n## What is retried, on which faults\n\n```bash\n[not a link](gone.md)\n```\n");
            File.WriteAllText(Path.Combine(root, "README.md"), string.Join('\n',
                "# Front",
                "[fine](docs/a.md#what-is-retried-on-which-faults) [also fine](#front) [web](https://example.com/x) `[code](gone.md)`",
                "[missing file](docs/b.md)",
                "[missing anchor](docs/a.md#what-is-retried)",
                "[outside](../shared/API.md)",
                "[missing here](#nowhere)"));

            var broken = LinkCheck.Broken(root, ["README.md", "docs/a.md"]);

            broken.Count.ShouldBe(4, string.Join('\n', broken));
            broken.ShouldContain(b => b.StartsWith("README.md:3: docs/b.md", StringComparison.Ordinal));
            broken.ShouldContain(b => b.StartsWith("README.md:4: docs/a.md#what-is-retried", StringComparison.Ordinal));
            broken.ShouldContain(b => b.StartsWith("README.md:5: ../shared/API.md", StringComparison.Ordinal));
            broken.ShouldContain(b => b.StartsWith("README.md:6: #nowhere", StringComparison.Ordinal));
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    [Theory]
    [InlineData("What is retried, on which faults", "what-is-retried-on-which-faults")]
    [InlineData("The MongoDB keys (`Store:MongoDb:*`)", "the-mongodb-keys-storemongodb")]
    [InlineData("Performance: batch filter, cold start, allocations", "performance-batch-filter-cold-start-allocations")]
    [InlineData("Two commands for a fresh machine", "two-commands-for-a-fresh-machine")]
    [InlineData("SQLite: the default", "sqlite-the-default")]
    public void Anchors_follow_GitHub_s_rules(string heading, string anchor) => MarkdownPage.Slug(heading).ShouldBe(anchor);
}
