using Microsoft.SqlServer.TransactSql.ScriptDom;
using OrderService.Data.SqlServer;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Commands;

public sealed class SchemaScriptTests
{
    [Fact]
    public void The_embedded_scripts_are_numbered_from_one_without_gaps()
    {
        var versions = SqlServerSchema.Scripts().Select(s => s.Version).ToList();

        versions.ShouldNotBeEmpty();
        versions.ShouldBe(Enumerable.Range(1, versions.Count).ToList());
    }

    [Fact]
    public void Every_schema_statement_parses()
    {
        foreach (var script in SqlServerSchema.Scripts())
        {
            TSql.Parse(script.Sql, $"schema script {script.Name}");
        }

        TSql.Parse(SqlServerSchema.CreateDatabaseIfMissing, nameof(SqlServerSchema.CreateDatabaseIfMissing));
        TSql.Parse(SqlServerSchema.SchemaLock, nameof(SqlServerSchema.SchemaLock));
        var schema = new SqlServerSchema("Server=localhost;Database=orders");
        TSql.Parse(schema.CreateVersionsTable("schema_versions"), nameof(schema.CreateVersionsTable));
        TSql.Parse(schema.AppliedVersions("schema_versions"), nameof(schema.AppliedVersions));
        TSql.Parse(schema.RecordVersion("schema_versions"), nameof(schema.RecordVersion));
    }

    [Fact]
    public void Orders_cluster_on_the_identity_and_keep_the_uuid_as_a_unique_nonclustered_key()
    {
        var script = TSql.Parse(SqlServerSchema.Scripts()[0].Sql, "schema script 1");
        var orders = ((TSqlScript)script).Batches.SelectMany(b => b.Statements).OfType<CreateTableStatement>()
            .Single(t => t.SchemaObjectName.BaseIdentifier.Value == "orders");
        var columns = orders.Definition.ColumnDefinitions;

        var seq = columns.Single(c => c.ColumnIdentifier.Value == "seq");
        seq.IdentityOptions.ShouldNotBeNull();
        seq.Constraints.OfType<UniqueConstraintDefinition>().Single().ShouldSatisfyAllConditions(
            c => c.IsPrimaryKey.ShouldBeTrue(),
            c => c.Clustered.ShouldBe(true));

        var id = columns.Single(c => c.ColumnIdentifier.Value == "id");
        id.Constraints.OfType<UniqueConstraintDefinition>().Single().ShouldSatisfyAllConditions(
            c => c.IsPrimaryKey.ShouldBeFalse(),
            c => c.Clustered.ShouldBe(false));
    }
}
