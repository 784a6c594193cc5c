using System.Data;
using System.Text.RegularExpressions;
using OrderService.Data;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Commands;

/// <summary>
/// Every command the store sends, built for real as a SqlCommand in every switch combination. Reading a
/// parameter's SqlDbType makes SqlClient inspect the value's type for a CLR UDT attribute, which loads
/// Microsoft.SqlServer.Server (the package SqlClient depends on): a missing or mismatched assembly fails here.
/// </summary>
public sealed partial class CommandParameterTests
{
    private static readonly Dictionary<string, SqlDbType> ExpectedTypes = new(StringComparer.Ordinal)
    {
        ["Id"] = SqlDbType.UniqueIdentifier,
        ["At"] = SqlDbType.DateTimeOffset,
        ["Total"] = SqlDbType.Decimal,
        ["Expected"] = SqlDbType.Int,
        ["Take"] = SqlDbType.Int,
        ["AfterAt"] = SqlDbType.DateTimeOffset,
        ["AfterId"] = SqlDbType.UniqueIdentifier,
        ["TopAt"] = SqlDbType.DateTimeOffset,
        ["TopId"] = SqlDbType.UniqueIdentifier,
        ["LastAt"] = SqlDbType.DateTimeOffset,
        ["LastId"] = SqlDbType.UniqueIdentifier,
        ["CustomerId"] = SqlDbType.NVarChar,
        ["Status"] = SqlDbType.NVarChar,
        ["Key"] = SqlDbType.NVarChar,
        ["RequestHash"] = SqlDbType.NVarChar,
        ["Lines"] = SqlDbType.NVarChar,
        ["Data"] = SqlDbType.NVarChar,
        ["Ids"] = SqlDbType.NVarChar,
    };

    public static TheoryData<UnitOfWork, WriteIsolation, ReadIsolation, BatchFilter> Combinations() => SentStatements.Combinations();

    [Theory]
    [MemberData(nameof(Combinations))]
    public async Task Every_parameter_has_its_declared_type_and_size(UnitOfWork unitOfWork, WriteIsolation write, ReadIsolation read, BatchFilter batch)
    {
        var sent = await SentStatements.RecordAsync(SentStatements.Options(unitOfWork, write, read, batch));

        sent.Count.ShouldBeGreaterThan(20, "the recorded flows send a statement for every step");
        sent.SelectMany(c => c.Parameters).Select(p => p.ParameterName).ShouldContain("Id");
        foreach (var command in sent)
        {
            var referenced = ReferencedParameters(command.Text);
            command.Parameters.Select(p => p.ParameterName).Order().ShouldBe(referenced.Order(), $"parameters sent vs used in:\n{command.Text}");
            foreach (var parameter in command.Parameters)
            {
                var name = IdListParameter().IsMatch(parameter.ParameterName) ? "Id" : parameter.ParameterName;
                ExpectedTypes.ShouldContainKey(name);
                parameter.SqlDbType.ShouldBe(ExpectedTypes[name], $"@{parameter.ParameterName}");
                if (parameter.SqlDbType == SqlDbType.NVarChar)
                {
                    // Declared sizes, never the value's length: one declaration, so one cached plan, per statement.
                    parameter.Size.ShouldBeOneOf([4000, -1], $"@{parameter.ParameterName}");
                }
            }
        }
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public async Task The_batch_filter_sends_one_nvarchar_max_parameter_or_chunks_below_2100(UnitOfWork unitOfWork, WriteIsolation write, ReadIsolation read, BatchFilter batch)
    {
        var sent = await SentStatements.RecordAsync(SentStatements.Options(unitOfWork, write, read, batch));
        var batchReads = sent.Where(c => c.Parameters.Any(p => p.ParameterName == "Ids" || IdListParameter().IsMatch(p.ParameterName))).ToList();

        if (batch == BatchFilter.Json)
        {
            batchReads.Count.ShouldBe(SentStatements.BatchSizes.Length);
            foreach (var command in batchReads)
            {
                var ids = command.Parameters.ShouldHaveSingleItem();
                ids.ParameterName.ShouldBe("Ids");
                ids.SqlDbType.ShouldBe(SqlDbType.NVarChar);
                ids.Size.ShouldBe(-1); // nvarchar(max) whatever the count: one plan, not one per 4,000-character step
            }

            batchReads.Select(c => c.Text).Distinct().ShouldHaveSingleItem();
        }
        else
        {
            batchReads.ShouldAllBe(c => c.Command.Parameters.Count < 2_100);
            batchReads.Sum(c => c.Command.Parameters.Count).ShouldBe(SentStatements.BatchSizes.Sum());
            batchReads.Count.ShouldBe(1 + 2 + 5); // 1 id; 2,100 ids in 2 chunks; 10,000 ids in 5 chunks
        }
    }

    [Theory]
    [MemberData(nameof(Combinations))]
    public async Task Writes_run_at_the_configured_isolation(UnitOfWork unitOfWork, WriteIsolation write, ReadIsolation read, BatchFilter batch)
    {
        var sent = await SentStatements.RecordAsync(SentStatements.Options(unitOfWork, write, read, batch));
        var levels = sent.Where(c => c.Isolation is not null).Select(c => c.Isolation!.Value).Distinct().ToList();

        IsolationLevel[] expected = write switch
        {
            WriteIsolation.RepeatableRead => [IsolationLevel.RepeatableRead],
            WriteIsolation.Serializable => [IsolationLevel.Serializable],
            _ => [], // each write is one atomic command: no explicit transaction
        };
        levels.ShouldBe(expected);

        // Reads never run inside a write transaction, except the read-backs that belong to a write.
        var reads = sent.Where(c => c.Parameters.Any(p => p.ParameterName is "Ids" or "Take" or "TopAt")).ToList();
        reads.ShouldNotBeEmpty();
        reads.ShouldAllBe(c => c.Isolation == null);
    }

    /// <summary>The @names a text uses, less the variables it DECLAREs itself (the table variables @written, @created).</summary>
    private static IEnumerable<string> ReferencedParameters(string sql)
    {
        var declared = DeclaredVariable().Matches(sql).Select(m => m.Groups[1].Value).ToHashSet(StringComparer.Ordinal);
        return ParameterReference().Matches(sql).Select(m => m.Groups[1].Value).Where(name => !declared.Contains(name)).Distinct();
    }

    [GeneratedRegex(@"(?<![@\w])@([A-Za-z]\w*)")]
    private static partial Regex ParameterReference();

    [GeneratedRegex(@"\bDECLARE\s+@([A-Za-z]\w*)")]
    private static partial Regex DeclaredVariable();

    [GeneratedRegex(@"^Id\d+$")]
    private static partial Regex IdListParameter();
}
