using Microsoft.SqlServer.TransactSql.ScriptDom;

namespace OrderService.Unit.Tests.Commands;

/// <summary>What a parsed command reads and how: every table reference with its NOLOCK hint, and every OPENJSON source.</summary>
internal sealed class StatementShape
{
    /// <summary>The tables that hold order data: the reads of these carry the read isolation.</summary>
    private static readonly HashSet<string> OrderTables = new(["orders", "order_lines", "order_events"], StringComparer.OrdinalIgnoreCase);

    private StatementShape()
    {
    }

    /// <summary>Table references in SELECT statements that read order data (the reads).</summary>
    public List<(string Table, bool NoLock)> OrderReads { get; } = [];

    /// <summary>Every other table reference: in INSERT/UPDATE/IF statements and the idempotency-key lookup (the writes).</summary>
    public List<(string Table, bool NoLock)> WriteSide { get; } = [];

    /// <summary>The argument of every OPENJSON, e.g. "@Ids" or "@Lines".</summary>
    public List<string> OpenJsonSources { get; } = [];

    public static StatementShape Of(TSqlFragment script)
    {
        var shape = new StatementShape();
        foreach (var statement in ((TSqlScript)script).Batches.SelectMany(b => b.Statements))
        {
            var tables = new TableVisitor();
            statement.Accept(tables);
            shape.OpenJsonSources.AddRange(tables.OpenJsonSources);
            var readsOrders = statement is SelectStatement && tables.Tables.Any(t => OrderTables.Contains(t.Table));
            (readsOrders ? shape.OrderReads : shape.WriteSide).AddRange(tables.Tables);
        }

        return shape;
    }

    private sealed class TableVisitor : TSqlFragmentVisitor
    {
        public List<(string Table, bool NoLock)> Tables { get; } = [];

        public List<string> OpenJsonSources { get; } = [];

        public override void ExplicitVisit(NamedTableReference node)
        {
            Tables.Add((node.SchemaObject.BaseIdentifier.Value, node.TableHints.Any(h => h.HintKind == TableHintKind.NoLock)));
            base.ExplicitVisit(node);
        }

        public override void ExplicitVisit(OpenJsonTableReference node)
        {
            OpenJsonSources.Add(node.Variable is VariableReference variable ? variable.Name : node.Variable.GetType().Name);
            base.ExplicitVisit(node);
        }
    }
}
