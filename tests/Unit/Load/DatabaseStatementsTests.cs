using System.Text;
using OrderService.Load.Shootout;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Load;

public sealed class DatabaseStatementsTests
{
    [Fact]
    public void The_report_lists_each_row_s_statements_by_time_and_sums_the_rest()
    {
        var statements = new List<StatementCost>
        {
            new("WITH c AS (INSERT INTO customers ...)", 1, 100),
            new("WITH u AS (UPDATE orders ...)", 3, 50),
        };
        statements.AddRange(Enumerable.Range(1, DatabaseStatements.Shown).Select(i => new StatementCost($"SELECT {i} | x `y`", 0.5, 2)));

        var md = new StringBuilder();
        DatabaseStatements.Append(md, Report(statements));
        var text = md.ToString();

        text.ShouldContain("## Where PostgreSQL's time went");
        text.ShouldContain("| postgres | Relational | v1-shared-uow | `WITH u AS (UPDATE orders ...)` | 3.00 | 50.0 | 150.0 | 58% |");
        text.ShouldContain("| postgres | Relational | v1-shared-uow | `SELECT 1 \\| x 'y'` | 0.50 | 2.0 | 1.0 | 0% |", Case.Sensitive, "a pipe would end the cell, a backtick the code span");
        text.ShouldContain("| postgres | Relational | v1-shared-uow | 2 other statements | 1.00 | – | 2.0 | 1% |");
        text.ShouldContain("| postgres | Relational | v1-shared-uow | **all statements** | 8.00 | – | **258.0** | 100% |");
        text.ShouldContain("| postgres | – | pgbench (plain per-statement SQL) | `INSERT INTO order_events ...` | 4.00 | 200.0 | 800.0 | 100% |", Case.Sensitive, "pgbench's statements follow the rows");
    }

    [Fact]
    public void A_report_without_statements_has_no_section()
    {
        var md = new StringBuilder();
        DatabaseStatements.Append(md, Report(null));
        md.ToString().ShouldBeEmpty("runs without --pg-statements, and older reports");
    }

    private static ShootoutReport Report(List<StatementCost>? statements)
    {
        List<ReferenceResult> references = statements is null ? [] :
            [new ReferenceResult("postgres", "pgbench (plain per-statement SQL)", 1000, "d") { DatabaseStatements = [new StatementCost("INSERT INTO order_events ...", 4, 200)] }];
        var machine = new MachineInfo("host", 2, 4096, "cpu", "linux", ".NET 10", []);
        var header = new ReportHeader(DateTimeOffset.UnixEpoch, "cmd", machine, 1000, 100, 100, 0, []);
        var audit = new AuditResult(1000, 0, 0, 0, 0, 0, 0, 0, []);
        return new ShootoutReport(header,
            [new VariantResult("postgres/relational/v1-shared-uow", "postgres", "Relational", "v1-shared-uow", "variant 1", "d", true, "sync", false,
                1000, 100, 1, 1000, 1000, [], [], audit, null, null, null, null, null) { DatabaseStatements = statements }],
            references, []);
    }
}
