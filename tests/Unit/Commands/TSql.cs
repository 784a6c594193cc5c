using Microsoft.SqlServer.TransactSql.ScriptDom;
using Shouldly;

namespace OrderService.Unit.Tests.Commands;

/// <summary>Parses T-SQL with the SQL Server 2022 grammar (TSql160Parser) and fails with every parse error listed.</summary>
internal static class TSql
{
    public static TSqlFragment Parse(string sql, string name)
    {
        var parser = new TSql160Parser(initialQuotedIdentifiers: true);
        using var reader = new StringReader(sql);
        var fragment = parser.Parse(reader, out var errors);
        errors.ShouldBeEmpty($"{name} does not parse:\n{string.Join('\n', errors.Select(e => $"  line {e.Line}, col {e.Column}: {e.Message}"))}\n{sql}");
        return fragment;
    }
}
