using System.Data;
using Microsoft.Data.SqlClient;
using OrderService.Data.Relational;

namespace OrderService.Data.SqlServer;

/// <summary>
/// A parameter set of one nvarchar(max) text parameter. Dapper sizes a string as nvarchar(4000) or, when it
/// is long, nvarchar(max), and leaves an object-typed value to the driver, which declares nvarchar(length):
/// either way the declaration, and with it the cached plan, changes with the text's length. Declaring Size -1
/// always keeps one declaration and one plan.
/// </summary>
public sealed class SqlServerMaxText(string name, string value) : IStatementParameters
{
    public string Name { get; } = name;

    public string Value { get; } = value;

    public void AddTo(ParameterTarget target) =>
        target.Parameters.Add(new SqlParameter(Name, SqlDbType.NVarChar, -1) { Value = Value });
}
