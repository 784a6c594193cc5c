using System.Net.Http.Json;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// docs/api.md is the contract in prose; the service's OpenAPI document is the contract the code publishes. The
/// page's endpoint table (method, path, every status) must equal the document's operations and responses, in both
/// directions, and every configuration key the page names must be in the generated configuration reference.
/// </summary>
public sealed partial class ApiContractTests
{
    private const string Page = "docs/api.md";

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task The_endpoint_table_lists_exactly_the_OpenAPI_document_s_operations_and_statuses()
    {
        var documented = DocumentedOutcomes();
        documented.ShouldNotBeEmpty($"{Page} has no endpoint table ('| `METHOD /path` | … | statuses |')");

        var published = await PublishedOutcomesAsync();

        documented.Except(published).Order().ToList()
            .ShouldBeEmpty($"{Page} states these method, path and status triples that /openapi/v1.json does not have");
        published.Except(documented).Order().ToList()
            .ShouldBeEmpty($"/openapi/v1.json has these method, path and status triples that {Page}'s endpoint table lacks");
    }

    [Fact]
    public void Every_configuration_key_the_page_names_is_in_the_configuration_reference()
    {
        // The page names keys and links to docs/configuration.md for their defaults (KeyTableTests keeps the defaults there).
        var reference = Repository.Read("docs", "configuration.md").Split('\n')
            .Where(l => l.StartsWith("| `", StringComparison.Ordinal))
            .Select(l => Cells(l)[0].Trim('`'))
            .ToHashSet(StringComparer.Ordinal);
        var named = ConfigurationKey().Matches(Repository.Read(Page)).Select(m => m.Groups["key"].Value).Distinct().ToList();

        named.ShouldNotBeEmpty($"{Page} names no configuration key");
        named.Where(key => !reference.Contains(key) && !reference.Any(k => k.StartsWith(key + ":", StringComparison.Ordinal)))
            .ShouldBeEmpty($"{Page} names keys (or sections) that docs/configuration.md does not have");
    }

    /// <summary>"POST /orders 201" for every status of every row whose first cell is a `METHOD /path`.</summary>
    private static HashSet<string> DocumentedOutcomes() =>
        [.. TableRows(Repository.Read(Page), "| endpoint | request | success | statuses |")
            .SelectMany(row => row[3].Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries)
                .Select(status => $"{row[0].Trim('`')} {status}"))];

    private static async Task<HashSet<string>> PublishedOutcomesAsync()
    {
        using var database = new ScratchSqliteFile();
        await using var app = new WebApplicationFactory<Program>().WithWebHostBuilder(b =>
            b.UseEnvironment("Testing").UseSetting("Authorization:Mode", "None").UseSetting("OpenApi:Enabled", "true")
                .UseSetting("ConnectionStrings:Orders", database.ConnectionString));
        using var client = app.CreateClient();
        var document = (await client.GetFromJsonAsync<JsonObject>("/openapi/v1.json", Ct))!;
        return [.. document["paths"]!.AsObject().SelectMany(path => path.Value!.AsObject().SelectMany(operation =>
            operation.Value!["responses"]!.AsObject().Select(response => $"{operation.Key.ToUpperInvariant()} {path.Key} {response.Key}")))];
    }

    /// <summary>The rows (cells without their backticks) of the table under <paramref name="header"/>.</summary>
    private static List<string[]> TableRows(string page, string header)
    {
        var lines = page.Split('\n').Select(l => l.TrimEnd('\r')).ToList();
        var start = lines.IndexOf(header);
        return start < 0
            ? []
            : [.. lines.Skip(start + 2).TakeWhile(l => l.StartsWith('|')).Select(Cells).Select(c => c.Select(cell => cell.Trim('`')).ToArray())];
    }

    private static string[] Cells(string row) => [.. row.Trim().Trim('|').Split('|').Select(c => c.Trim())];

    [GeneratedRegex(@"`(?<key>(?:Store|Resilience|Authentication|ConnectionStrings)(?::[A-Za-z*]+)*)`")]
    private static partial Regex ConfigurationKey();
}
