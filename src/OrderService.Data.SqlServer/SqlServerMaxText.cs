using System.Data;
using Dapper;
using Microsoft.Data.SqlClient;

namespace OrderService.Data.SqlServer;

/// <summary>
/// A Dapper parameter set of one nvarchar(max) text parameter. Dapper sizes a string as nvarchar(4000)
/// or, when it is long, nvarchar(max), and leaves an object-typed value to the driver, which declares
/// nvarchar(length): either way the declaration, and with it the cached plan, changes with the text's
/// length. Declaring Size -1 always keeps one declaration and one plan.
/// </summary>
public sealed class SqlServerMaxText(string name, string value) : SqlMapper.IDynamicParameters
{
    public string Name { get; } = name;

    public string Value { get; } = value;

    public void AddParameters(IDbCommand command, SqlMapper.Identity identity)
    {
        var parameter = command.CreateParameter();
        parameter.ParameterName = Name;
        parameter.DbType = DbType.String;
        parameter.Size = -1;
        parameter.Value = Value;
        if (parameter is SqlParameter sql)
        {
            sql.SqlDbType = SqlDbType.NVarChar;
        }

        command.Parameters.Add(parameter);
    }
}
