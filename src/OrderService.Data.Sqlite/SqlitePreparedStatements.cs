using System.Data.Common;
using Dapper;
using Microsoft.Data.Sqlite;
using OrderService.Data.Relational;

namespace OrderService.Data.Sqlite;

/// <summary>The group-commit writer's statements, kept prepared; used only on the writer thread, so no lock.</summary>
internal sealed class SqlitePreparedStatements
{
    // The write path sends a few dozen distinct texts; the cap only guards against a runaway caller.
    private const int Capacity = 128;

    private readonly Dictionary<string, SqliteCommand> _prepared = new(StringComparer.Ordinal);

    public DbDataReader ExecuteReader(SqliteConnection connection, CommandDefinition definition)
    {
        if (definition.Parameters is not IStatementParameters arguments)
        {
            throw new ArgumentException("The writer's statements take statement parameters.", nameof(definition));
        }

        if (!_prepared.TryGetValue(definition.CommandText, out var command))
        {
            if (_prepared.Count >= Capacity)
            {
                Clear();
            }

            command = connection.CreateCommand();
            command.CommandText = definition.CommandText;
            command.CommandTimeout = definition.CommandTimeout ?? command.CommandTimeout;
            _prepared[definition.CommandText] = command;
        }

        // The statement stays prepared while its text stays the same: only the values are bound afresh.
        command.Parameters.Clear();
        arguments.AddTo(new ParameterTarget(command));
        return command.ExecuteReader();
    }

    private void Clear()
    {
        foreach (var command in _prepared.Values)
        {
            command.Dispose();
        }

        _prepared.Clear();
    }
}
