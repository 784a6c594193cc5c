using System.Collections.Concurrent;
using System.Data.Common;
using System.Reflection;
using System.Text.RegularExpressions;
using Dapper;
using Microsoft.Data.Sqlite;

namespace OrderService.Data.Sqlite;

/// <summary>
/// The group-commit writer's statements, kept prepared. Microsoft.Data.Sqlite prepares a statement per
/// command object, so a fresh command (what Dapper makes) would compile its SQL again on every write, on the
/// one thread every write queues behind. Used only on the writer thread, so it takes no lock.
/// </summary>
internal sealed partial class SqlitePreparedStatements
{
    // The write path sends a few dozen distinct texts; the cap only guards against a runaway caller.
    private const int Capacity = 128;

    private static readonly ConcurrentDictionary<(string Sql, Type Arguments), Binding[]> Bindings = new();

    private readonly Dictionary<(string, Type), (SqliteCommand Command, Binding[] Bindings)> _prepared = [];

    public DbDataReader ExecuteReader(SqliteConnection connection, CommandDefinition definition)
    {
        var arguments = definition.Parameters ?? throw new ArgumentException("The writer's statements take an arguments object.", nameof(definition));
        var key = (definition.CommandText, arguments.GetType());
        if (!_prepared.TryGetValue(key, out var entry))
        {
            if (_prepared.Count >= Capacity)
            {
                Clear();
            }

            entry = Prepare(connection, definition, key);
            _prepared[key] = entry;
        }

        var parameters = entry.Command.Parameters;
        for (var i = 0; i < entry.Bindings.Length; i++)
        {
            parameters[i].Value = entry.Bindings[i].Property.GetValue(arguments) ?? DBNull.Value;
        }

        return entry.Command.ExecuteReader();
    }

    private void Clear()
    {
        foreach (var (command, _) in _prepared.Values)
        {
            command.Dispose();
        }

        _prepared.Clear();
    }

    private static (SqliteCommand, Binding[]) Prepare(SqliteConnection connection, CommandDefinition definition, (string Sql, Type Arguments) key)
    {
        // Like Dapper: bind the properties whose @Name the text uses, and only those.
        var bindings = Bindings.GetOrAdd(key, static k =>
        {
            var used = ParameterName().Matches(k.Sql).Select(m => m.Groups[1].Value).ToHashSet(StringComparer.Ordinal);
            return k.Arguments.GetProperties(BindingFlags.Public | BindingFlags.Instance)
                .Where(p => used.Contains(p.Name))
                .Select(p => new Binding(p))
                .ToArray();
        });
        var command = connection.CreateCommand();
        command.CommandText = key.Sql;
        command.CommandTimeout = definition.CommandTimeout ?? command.CommandTimeout;
        foreach (var binding in bindings)
        {
            command.Parameters.Add(new SqliteParameter("@" + binding.Property.Name, null));
        }

        return (command, bindings);
    }

    [GeneratedRegex(@"@([A-Za-z_][A-Za-z0-9_]*)")]
    private static partial Regex ParameterName();

    private sealed record Binding(PropertyInfo Property);
}
