using System.Data;
using Microsoft.Data.SqlClient;
using OrderService.Data.Relational;

namespace OrderService.Data.SqlServer;

/// <summary>One nvarchar(max) text parameter: one declaration, so one cached plan, whatever the length.</summary>
public sealed class SqlServerMaxText(string name, string value) : IStatementParameters
{
    public void AddTo(ParameterTarget target) =>
        target.Parameters.Add(new SqlParameter(name, SqlDbType.NVarChar, -1) { Value = value });
}
