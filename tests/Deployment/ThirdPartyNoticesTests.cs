using System.Text.Json.Nodes;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests;

/// <summary>
/// THIRD-PARTY-NOTICES.md names every package the service ships, at the version it ships: the service's deps file
/// (copied beside this test assembly by the build) is the list, so a new package or an upgrade without its licence
/// line fails here.
/// </summary>
public sealed class ThirdPartyNoticesTests
{
    [Fact]
    public void Every_shipped_package_is_listed_with_its_version()
    {
        var notices = Repository.Read("THIRD-PARTY-NOTICES.md");
        var deps = JsonNode.Parse(File.ReadAllText(Path.Combine(AppContext.BaseDirectory, "OrderService.deps.json")))!;

        var shipped = deps["libraries"]!.AsObject()
            .Where(library => (string?)library.Value!["type"] == "package")
            .Select(library => library.Key.Split('/'))
            .ToList();

        shipped.ShouldNotBeEmpty();
        var missing = shipped.Where(p => !notices.Contains($"| {p[0]} | {p[1]} |", StringComparison.Ordinal))
            .Select(p => $"{p[0]} {p[1]}").ToList();
        missing.ShouldBeEmpty("THIRD-PARTY-NOTICES.md lacks these packages of OrderService.deps.json (name | version | licence rows)");
    }

    [Fact]
    public void The_licence_is_MIT_and_README_says_so()
    {
        Repository.Read("LICENSE").ShouldStartWith("MIT License");
        var readme = Repository.Read("README.md");
        readme.ShouldContain("[MIT licence](LICENSE)");
        readme.ShouldContain("(THIRD-PARTY-NOTICES.md)");
    }
}
