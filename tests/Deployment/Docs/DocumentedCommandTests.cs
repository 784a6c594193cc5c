using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// Every command in a ```bash or ```sh block of README.md, docs/ and tests/Load/README.md, and every command written
/// inline in their prose (a code span that starts with `dotnet `, `scripts/`, `ORDERS_`...), is held to the repository: scripts exist and are
/// executable; `dotnet run --project`, `dotnet build` and `dotnet test` name projects that exist; a test assembly is the
/// one its project builds and `-class` matches one of its classes; the shoot-out's flags are options tests/Load
/// declares; `--Section:Key` on the service's command line and `Section__Key` in the environment are settings the app
/// reads; ORDERS_* variables are read by the scripts, the tests or the compose file; `docker compose up` names its
/// services. A rename in the code then fails here instead of in a reader's terminal.
/// </summary>
public sealed class DocumentedCommandTests
{
    [Fact]
    public void Every_command_in_README_and_docs_names_what_the_repository_has()
    {
        var check = new CommandCheck(Repository.Root);
        foreach (var block in DocumentedCommands.Blocks(Repository.Root))
        {
            check.Check(block);
        }

        check.Problems.ShouldBeEmpty(string.Join('\n', check.Problems));

        // Each kind of check met real commands, so this test cannot pass by finding nothing.
        foreach (var kind in new[] { "script", "project", "test assembly", "test class filter", "shoot-out flag", "configuration key", "environment variable", "compose service" })
        {
            check.Checked.GetValueOrDefault(kind).ShouldBeGreaterThan(0, $"no documented command was checked as a {kind}");
        }
    }

    [Fact]
    public void The_deployment_page_lists_every_service_of_the_compose_file()
    {
        var services = Yaml.Documents(Repository.Read("docker-compose.yml"))[0].Entries("services").Select(s => s.Key).ToList();
        var page = Repository.Read("docs", "operations.md");

        services.ShouldNotBeEmpty();
        services.Where(s => !page.Contains($"| `{s}` |", StringComparison.Ordinal)).ShouldBeEmpty("services docs/operations.md leaves out of its Compose table");
    }

    [Fact]
    public void A_renamed_flag_class_key_script_service_or_project_is_reported()
    {
        var check = new CommandCheck(Repository.Root);
        check.Check(new CodeBlock("example.md", 1, "bash", string.Join('\n',
            "dotnet run -c Release --project tests/Load -- --stores sqlite --workflow 10   # renamed: --workflows",
            "dotnet artifacts/bin/Integration/release/OrderService.Integration.Tests.dll -noLogo -class \"*NoSuchConformance\"",
            "Store__Provder=PostgreSql dotnet run --project src/OrderService --urls http://127.0.0.1:5000",
            "dotnet run --project src/OrderService -- --Store:Layuot=Document",
            "ORDERS_TEST_NOTHING=1 scripts/no-such-script.sh && docker compose up -d --wait mongo no-such-service",
            "x=$(dotnet build tests/NoSuch/NoSuch.csproj)",
            "dotnet artifacts/bin/Unit/release/OrderService.Wrong.Tests.dll")));

        check.Problems.Count.ShouldBe(9, string.Join('\n', check.Problems));
        check.Problems.ShouldContain(p => p.EndsWith("tests/Load declares no option --workflow", StringComparison.Ordinal));
        check.Problems.ShouldContain(p => p.EndsWith("-class *NoSuchConformance matches no class of Integration", StringComparison.Ordinal));
        check.Problems.ShouldContain(p => p.EndsWith("the service reads no setting Store__Provder", StringComparison.Ordinal));
        check.Problems.ShouldContain(p => p.EndsWith("the service reads no setting Store:Layuot", StringComparison.Ordinal));
        check.Problems.ShouldContain(p => p.EndsWith("nothing in scripts/, tests/ or docker-compose.yml reads ORDERS_TEST_NOTHING", StringComparison.Ordinal));
        check.Problems.ShouldContain(p => p.EndsWith("scripts/no-such-script.sh is missing or not executable", StringComparison.Ordinal));
        check.Problems.ShouldContain(p => p.EndsWith("docker-compose.yml has no service no-such-service", StringComparison.Ordinal));
        check.Problems.ShouldContain(p => p.EndsWith("no project tests/NoSuch/NoSuch.csproj", StringComparison.Ordinal));
        check.Problems.ShouldContain(p => p.EndsWith("Unit.csproj builds OrderService.Unit.Tests.dll", StringComparison.Ordinal));
    }

    [Fact]
    public void A_command_written_inline_in_prose_is_checked_like_one_in_a_block()
    {
        var page = MarkdownPage.Parse("example.md", "Run `dotnet run -c Release --project tests/Load -- --workflow 10` to race; `dotnet run` alone, `--stores` and `Store:Provider` are names, not commands.\n");

        var inline = page.CodeBlocks.ShouldHaveSingleItem();
        (inline.Language, inline.Line).ShouldBe((MarkdownPage.InlineCommand, 1));
        var check = new CommandCheck(Repository.Root);
        check.Check(inline);
        check.Problems.ShouldHaveSingleItem().ShouldEndWith("tests/Load declares no option --workflow");
    }

    [Fact]
    public void Shell_lines_split_into_commands_with_their_assignments_quotes_and_substitutions()
    {
        var commands = ShellCommands.Parse(
            "A__B=\"x y\" C=1 dotnet run --project src/OrderService \\\n  --urls http://127.0.0.1:5000   # a comment\n" +
            "id=$(curl -si 'http://h/a|b' | tr -d '\\r') && echo \"$id\" > out.txt");

        commands.Select(c => string.Join(' ', c.Words)).ToArray().ShouldBe(new[]
        {
            "dotnet run --project src/OrderService --urls http://127.0.0.1:5000",
            "curl -si http://h/a|b",
            "tr -d \\r",
            "",
            "echo $id",
        });
        commands[0].Assignments.ToArray().ShouldBe(new[] { ("A__B", "x y"), ("C", "1") });
        commands[3].Assignments.Single().Name.ShouldBe("id");
    }
}
