using System.Data;
using System.Data.Common;
using Dapper;

namespace OrderService.Data.Relational;

/// <summary>A statement's parameters, bound by code of their own.</summary>
public interface IStatementParameters : SqlMapper.IDynamicParameters
{
    void AddTo(ParameterTarget target);

    void SqlMapper.IDynamicParameters.AddParameters(IDbCommand command, SqlMapper.Identity identity) =>
        AddTo(new ParameterTarget(command));
}

/// <summary>Where parameters go: a command, or a group commit's batch command.</summary>
public readonly struct ParameterTarget
{
    private const int DapperStringSize = 4000;

    private readonly IDbCommand? _command;
    private readonly DbBatchCommand? _batchCommand;

    public ParameterTarget(IDbCommand command) => _command = command;

    public ParameterTarget(DbBatchCommand command) => _batchCommand = command;

    /// <summary>The target's own collection, for a binder that makes its provider's parameters itself.</summary>
    public DbParameterCollection Parameters => _batchCommand?.Parameters ?? (DbParameterCollection)_command!.Parameters;

    /// <summary>Binds <paramref name="value"/> (null as DBNull), of <paramref name="size"/> if given.</summary>
    public void Add(string name, object? value, DbType? type = null, int? size = null)
    {
        var command = _command;
        if (command is not null && !SqlText.NamesParameter(command.CommandText, name))
        {
            return;
        }

        IDbDataParameter parameter = command is not null ? command.CreateParameter() : _batchCommand!.CreateParameter();
        parameter.ParameterName = name;
        parameter.Value = value ?? DBNull.Value;
        if (type is { } declared)
        {
            parameter.DbType = declared;
            if (size is { } declaredSize)
            {
                parameter.Size = declaredSize;
            }
            else if (command is not null && declared == DbType.String
                && value is string { Length: <= DapperStringSize })
            {
                // A longer text is left unsized: no driver can take a size as a limit to cut it at.
                parameter.Size = DapperStringSize;
            }
        }

        if (command is not null)
        {
            command.Parameters.Add(parameter);
        }
        else
        {
            _batchCommand!.Parameters.Add((DbParameter)parameter);
        }
    }
}

public sealed class StatementArguments : IStatementParameters
{
    private readonly List<(string Name, object? Value, DbType? Type, int? Size)> _arguments = new(4);

    public StatementArguments Text(string name, string? value)
    {
        _arguments.Add((name, value, DbType.String, null));
        return this;
    }

    public StatementArguments Int32(string name, int value)
    {
        _arguments.Add((name, value, DbType.Int32, null));
        return this;
    }

    /// <summary>A value the provider maps itself unless <paramref name="type"/> declares it.</summary>
    public StatementArguments Value(string name, object? value, DbType? type = null, int? size = null)
    {
        _arguments.Add((name, value, type, size));
        return this;
    }

    /// <summary>The idempotency key and its request's hash, when the write carries a key.</summary>
    public StatementArguments Key(string? key, string? requestHash) =>
        key is null ? this : Text(nameof(Key), key).Text("RequestHash", requestHash);

    public void AddTo(ParameterTarget target)
    {
        foreach (var (name, value, type, size) in _arguments)
        {
            target.Add(name, value, type, size);
        }
    }
}

internal static class SqlText
{
    /// <summary>Whether <paramref name="sql"/> names <c>@name</c> as a whole word, as Dapper reads it.</summary>
    public static bool NamesParameter(string sql, string name)
    {
        for (var at = sql.IndexOf(name, StringComparison.OrdinalIgnoreCase); at >= 0; at =
            sql.IndexOf(name, at + 1, StringComparison.OrdinalIgnoreCase))
        {
            var end = at + name.Length;
            if (at > 0 && sql[at - 1] == '@'
                && (end == sql.Length || !(char.IsLetterOrDigit(sql[end]) || sql[end] == '_')))
            {
                return true;
            }
        }

        return false;
    }
}
