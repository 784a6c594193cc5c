using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Settings;

/// <summary>
/// A bad setting, through the real process: exit code 1 and exactly one line on stderr that names the key and
/// what is allowed (a value that does not convert: the value too); nothing on stdout, no stack trace. Covers enum,
/// bool and number values that do not convert, data-annotation ranges (the store's and an engine's section),
/// cross-field rules and connection strings (a MongoDB URI too), for every options class (Store, Store:Sqlite,
/// Store:PostgreSql, Resilience).
/// </summary>
public sealed class BadSettingTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    /// <summary>
    /// Each case by a name that says what is wrong; the arguments stay out of the test's display name, which
    /// scripts/test.sh would otherwise read as a store's test (it groups tests by the store names they carry).
    /// </summary>
    private static readonly Dictionary<string, (string[] Arguments, string[] Expected)> Cases = new()
    {
        ["unknown enum name"] = (["--Store:Provider=Postgres"],
            ["Store:Provider", "\"Postgres\"", "allowed: Sqlite, PostgreSql, SqlServer, MongoDb."]),
        ["enum number naming no member"] = (["--Store:Provider=7"], ["Store:Provider", "\"7\"", "Sqlite, PostgreSql, SqlServer"]),
        ["misspelt layout"] = (["--Store:Layout=Documents"],
            ["Store:Layout", "\"Documents\"", "allowed: Relational, Document."]),
        ["number below its range"] = (["--Store:CommandTimeoutSeconds=0"], ["Store:CommandTimeoutSeconds", "between 1 and 600"]),
        ["word for a number"] = (["--Store:CommandTimeoutSeconds=five"],
            ["Store:CommandTimeoutSeconds", "\"five\"", "allowed: a whole number."]),
        ["nested section, unknown enum name"] = (["--Store:Sqlite:Synchronous=Extra"],
            ["Store:Sqlite:Synchronous", "\"Extra\"", "allowed: Off, Normal, Full."]),
        ["nested section, word for a bool"] = (["--Store:Sqlite:GroupCommit=yes"],
            ["Store:Sqlite:GroupCommit", "\"yes\"", "allowed: true, false."]),
        ["nested section, number below its range"] = (["--Store:Sqlite:GroupCommitMaxBatch=0"], ["Store:Sqlite:GroupCommitMaxBatch", "between 1 and 10000"]),
        ["other nested section, unknown enum name"] = (["--Store:PostgreSql:SynchronousCommit=maybe"],
            ["Store:PostgreSql:SynchronousCommit", "\"maybe\"", "allowed: On, Off, Local."]),
        ["other nested section, number above its range"] = (["--Store:PostgreSql:CommitDelayMicroseconds=200000"], ["Store:PostgreSql:CommitDelayMicroseconds", "between 0 and 100000"]),
        ["group commit writers below their range"] = (["--Store:PostgreSql:GroupCommitWriters=0"], ["Store:PostgreSql:GroupCommitWriters", "between 1 and 64"]),
        ["key retention below its range"] = (["--Store:IdempotencyKeys:RetentionHours=0"], ["Store:IdempotencyKeys:RetentionHours", "between 1 and 8760"]),
        ["resilience, negative count"] = (["--Resilience:MaxRetries=-1"], ["Resilience:MaxRetries", "between 0 and 10"]),
        ["resilience, attempt longer than total"] = (["--Resilience:AttemptTimeoutSeconds=10"], ["Resilience:AttemptTimeoutSeconds", "\"10\"", "1 to 5", "Resilience:TotalTimeoutSeconds"]),
        ["server store without a connection string"] = (["--Store:Provider=PostgreSql"], ["ConnectionStrings:Orders", "Missing", "PostgreSql connection string"]),
        ["misspelt keyword in a connection string of an engine in its own project"] = (["--Store:Provider=SqlServer", "--ConnectionStrings:Orders=Servr=db"], ["ConnectionStrings:Orders", "a SqlServer connection string"]),
        ["misspelt keyword in a connection string setting checked by its engine's driver"] = (["--Store:Provider=SqlServer", "--ConnectionStrings:Orders=Server=db", "--Store:SqlServer:ReadConnectionString=Servr=db"], ["Store:SqlServer:ReadConnectionString", "a SQL Server connection string"]),
        ["MongoDB connection string that is not a URI"] = (["--Store:Provider=MongoDb", "--Store:Layout=Document", "--ConnectionStrings:Orders=Host=127.0.0.1;Database=orders"],
            ["ConnectionStrings:Orders", "value hidden", "a MongoDB URI (mongodb://host/database?options)"]),
        ["layout the provider lacks"] = (["--Store:Provider=SqlServer", "--Store:Layout=Document", "--ConnectionStrings:Orders=Server=127.0.0.1"], ["Store:Layout", "\"Document\"", "Relational with Store:Provider=SqlServer"]),
    };

    public static TheoryData<string> CaseNames => [.. Cases.Keys];

    [Theory]
    [MemberData(nameof(CaseNames))]
    public async Task A_bad_setting_exits_with_code_1_and_one_stderr_line_naming_the_key_and_what_is_allowed(string wrong)
    {
        var (arguments, expected) = Cases[wrong];
        var run = await OrderServiceProcess.RunAsync([.. arguments, "--urls", "http://127.0.0.1:0"], cancellationToken: Ct);

        run.ExitCode.ShouldBe(1, run.StandardError + run.StandardOutput);
        var line = run.ErrorLines.ShouldHaveSingleItem(run.StandardError);
        foreach (var fragment in expected)
        {
            line.ShouldContain(fragment, Case.Sensitive);
        }

        run.StandardOutput.ShouldBeEmpty("nothing starts, listens or logs before the settings are checked");
    }

    [Fact]
    public async Task A_setting_from_an_environment_variable_is_named_by_its_configuration_key()
    {
        var run = await OrderServiceProcess.RunAsync(["--urls", "http://127.0.0.1:0"], new Dictionary<string, string> { ["Store__UnitOfWork"] = "PerWorkflow" }, cancellationToken: Ct);

        run.ExitCode.ShouldBe(1, run.StandardError + run.StandardOutput);
        run.ErrorLines.ShouldHaveSingleItem().ShouldBe(
            "Invalid setting Store:UnitOfWork = \"PerWorkflow\"; allowed: PerRequest, PerCall.");
    }

    [Fact]
    public async Task A_bad_connection_string_is_named_without_printing_it()
    {
        var run = await OrderServiceProcess.RunAsync(["--Store:Provider=PostgreSql", "--ConnectionStrings:Orders=Hots=db;Password=hunter2", "--urls", "http://127.0.0.1:0"], cancellationToken: Ct);

        run.ExitCode.ShouldBe(1, run.StandardError + run.StandardOutput);
        var line = run.ErrorLines.ShouldHaveSingleItem();
        line.ShouldContain("ConnectionStrings:Orders");
        line.ShouldContain("hidden");
        line.ShouldContain("PostgreSql connection string");
        line.ShouldNotContain("hunter2");
    }

    [Fact]
    public async Task Every_bad_setting_gets_its_own_line_in_one_run()
    {
        // Values that do not convert and values out of range, several in one section, in six sections; the unknown
        // mode also leaves authorization unconfigured, a line of its own.
        var run = await OrderServiceProcess.RunAsync(["--Store:CommandTimeoutSeconds=0", "--Store:Layout=Documnet",
            "--Authorization:Mode=Bearr", "--OpenApi:Enabled=maybe",
            "--Store:UnitOfWork=PerWorkflow", "--Store:Sqlite:BusyTimeoutMilliseconds=-1",
            "--Store:Sqlite:Synchronous=Extra", "--Store:PostgreSql:GroupCommit=yes",
            "--Resilience:RetryAfterSeconds=0", "--urls", "http://127.0.0.1:0"],
            cancellationToken: Ct);

        run.ExitCode.ShouldBe(1, run.StandardError + run.StandardOutput);
        run.ErrorLines.Count.ShouldBe(10, run.StandardError);
        run.ErrorLines.ShouldContain("Invalid setting Store:Layout = \"Documnet\"; allowed: Relational, Document.");
        run.ErrorLines.ShouldContain("Invalid setting Authorization:Mode = \"Bearr\"; allowed: Bearer, None.");
        run.ErrorLines.ShouldContain("Invalid setting OpenApi:Enabled = \"maybe\"; allowed: true, false.");
        run.ErrorLines.ShouldContain(
            "Invalid setting Store:UnitOfWork = \"PerWorkflow\"; allowed: PerRequest, PerCall.");
        run.ErrorLines.ShouldContain(
            "Invalid setting Store:Sqlite:Synchronous = \"Extra\"; allowed: Off, Normal, Full.");
        run.ErrorLines.ShouldContain("Invalid setting Store:PostgreSql:GroupCommit = \"yes\"; allowed: true, false.");
        run.ErrorLines.ShouldContain(l => l.Contains("Store:CommandTimeoutSeconds must be between 1 and 600", StringComparison.Ordinal));
        run.ErrorLines.ShouldContain(l => l.Contains("Store:Sqlite:BusyTimeoutMilliseconds must be between 0 and 600000", StringComparison.Ordinal));
        run.ErrorLines.ShouldContain(l => l.Contains("Resilience:RetryAfterSeconds must be between 1 and 3600", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Good_settings_start_the_service()
    {
        // The control: the same process with valid settings (one per options class) listens and logs.
        var run = await OrderServiceProcess.RunAsync(
            ["--Store:Provider=Sqlite", "--Store:Sqlite:GroupCommit=false", "--Store:PostgreSql:SynchronousCommit=off", "--Resilience:MaxRetries=3",
             "--urls", "http://127.0.0.1:0"],
            stopWhenOutput: line => line.Contains("Now listening on", StringComparison.Ordinal),
            cancellationToken: Ct);

        run.ExitCode.ShouldBe(-1, $"still running when stopped; stderr: {run.StandardError}");
        run.StandardOutput.ShouldContain("Now listening on");
        run.StandardError.ShouldBeEmpty();
    }
}
