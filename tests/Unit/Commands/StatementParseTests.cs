using OrderService.Data;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Commands;

/// <summary>
/// Every T-SQL command the SQL Server store sends, in every switch combination, goes through the SQL Server
/// parser (TSql160Parser): no server is needed to prove that the text is valid T-SQL and that the switches
/// shape it as documented.
/// </summary>
public sealed class StatementParseTests
{
    public static TheoryData<UnitOfWork, WriteIsolation, ReadIsolation, BatchFilter> Combinations() => SentStatements.Combinations();

    [Theory]
    [MemberData(nameof(Combinations))]
    public async Task Every_statement_parses_and_the_switches_shape_it(UnitOfWork unitOfWork, WriteIsolation write, ReadIsolation read, BatchFilter batch)
    {
        var sent = await SentStatements.RecordAsync(SentStatements.Options(unitOfWork, write, read, batch));
        sent.ShouldNotBeEmpty();
        var dirty = read == ReadIsolation.ReadUncommitted;
        var anyOpenJsonOverIds = false;

        var shapes = sent.Select(c => c.Text).Distinct().ToDictionary(text => text, text => StatementShape.Of(TSql.Parse(text, "a sent command")));
        foreach (var (text, shape) in shapes)
        {

            // NOLOCK on every table of every order read exactly when ReadUncommitted; never on the write side.
            shape.OrderReads.ShouldAllBe(t => t.NoLock == dirty, $"order reads with NOLOCK must be {dirty}:\n{text}");
            shape.WriteSide.ShouldAllBe(t => !t.NoLock, $"writes never read dirty:\n{text}");
            anyOpenJsonOverIds |= shape.OpenJsonSources.Contains("@Ids");
            shape.OpenJsonSources.ShouldAllBe(source => source == "@Ids" || source == "@Lines", text);
        }

        // OPENJSON over the id set exactly when the batch filter is Json.
        anyOpenJsonOverIds.ShouldBe(batch == BatchFilter.Json);
        var batchReads = sent.Where(c => c.Parameters.Any(p => p.ParameterName is "Ids" or "Id1")).ToList();
        batchReads.ShouldNotBeEmpty();
        foreach (var command in batchReads)
        {
            var shape = shapes[command.Text];
            (shape.OpenJsonSources.Count > 0).ShouldBe(batch == BatchFilter.Json, command.Text[..Math.Min(300, command.Text.Length)]);
            shape.OrderReads.ShouldNotBeEmpty();
        }

        // The reads are really there, so "all of them carry NOLOCK" was not vacuous.
        shapes.Values.Sum(s => s.OrderReads.Count).ShouldBeGreaterThan(0);
    }

    [Fact]
    public void A_keyed_transition_inserts_its_key_inside_the_write_and_an_unkeyed_one_never_touches_keys()
    {
        var dialect = new OrderService.Data.SqlServer.SqlServerDialect(ReadIsolation.ReadCommitted);
        foreach (var action in Enum.GetValues<OrderService.Data.Orders.OrderAction>())
        {
            var keyed = dialect.Transition(action, checksVersion: false, withKey: true);
            var insert = keyed.IndexOf("INSERT INTO dbo.idempotency_keys", StringComparison.Ordinal);
            insert.ShouldBeGreaterThan(keyed.IndexOf("BEGIN TRANSACTION", StringComparison.Ordinal), keyed);
            insert.ShouldBeLessThan(keyed.IndexOf("COMMIT TRANSACTION", StringComparison.Ordinal), keyed);
            keyed.ShouldContain("SET XACT_ABORT ON", Case.Sensitive, "a key's primary-key violation must roll the whole write back");

            dialect.Transition(action, checksVersion: false).ShouldNotContain("idempotency_keys");
            dialect.TransitionWrite(action, checksVersion: true).ShouldNotContain("idempotency_keys");
        }
    }

    [Fact]
    public void Every_transition_text_parses_for_every_action_with_and_without_if_match_and_key()
    {
        foreach (var read in Enum.GetValues<ReadIsolation>())
        {
            var dialect = new OrderService.Data.SqlServer.SqlServerDialect(read);
            foreach (var action in Enum.GetValues<OrderService.Data.Orders.OrderAction>())
            {
                foreach (var checksVersion in (bool[])[false, true])
                {
                    foreach (var withKey in (bool[])[false, true])
                    {
                        TSql.Parse(dialect.Transition(action, checksVersion, withKey), $"Transition({action}, {checksVersion}, {withKey})");
                        TSql.Parse(dialect.TransitionWrite(action, checksVersion, withKey), $"TransitionWrite({action}, {checksVersion}, {withKey})");
                    }
                }
            }
        }
    }
}
