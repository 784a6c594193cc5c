using System.Data.Common;
using System.Text.Json;
using Dapper;

namespace OrderService.Integration.Tests.Conformance.Infrastructure;

/// <summary>An order as its database rows hold it: whether its order row exists, how many lines, its events' sequence numbers in order.</summary>
public sealed record StoredOrderRows(bool OrderRow, int Lines, IReadOnlyList<int> EventSequences)
{
    public static readonly StoredOrderRows Nothing = new(false, 0, []);

    public override string ToString() => $"order row: {OrderRow}, lines: {Lines}, events: [{string.Join(", ", EventSequences)}]";
}

/// <summary>Reads <see cref="StoredOrderRows"/> straight from a database, for the fixtures of every store.</summary>
public static class StoredRows
{
    /// <summary>
    /// The relational layout: counts in orders and order_lines, sequences in order_events (each table read on its
    /// own, so lines or events without their order would show too). <paramref name="dbo"/> is the schema prefix
    /// ("dbo." on SQL Server) and <paramref name="sequence"/> the quoted column name.
    /// </summary>
    public static async Task<StoredOrderRows> RelationalAsync(DbConnection connection, object id, string dbo = "", string sequence = "sequence")
    {
        var parameters = new { id };
        var orders = await connection.ExecuteScalarAsync<int>($"SELECT COUNT(*) FROM {dbo}orders WHERE id = @id", parameters);
        var lines = await connection.ExecuteScalarAsync<int>($"SELECT COUNT(*) FROM {dbo}order_lines WHERE order_id = @id", parameters);
        var events = await connection.QueryAsync<int>($"SELECT {sequence} FROM {dbo}order_events WHERE order_id = @id ORDER BY {sequence}", parameters);
        return new StoredOrderRows(orders == 1, lines, events.ToList());
    }

    /// <summary>The document layout: the stored document's lines and events (null: no row).</summary>
    public static StoredOrderRows Document(string? document)
    {
        if (document is null)
        {
            return StoredOrderRows.Nothing;
        }

        using var json = JsonDocument.Parse(document);
        var root = json.RootElement;
        return new StoredOrderRows(
            true,
            root.GetProperty("lines").GetArrayLength(),
            root.GetProperty("events").EnumerateArray().Select(e => e.GetProperty("sequence").GetInt32()).ToList());
    }

    /// <summary>A customer-id prefix goes into trigger text (triggers take no parameters): letters, digits and '-' only.</summary>
    public static string CheckedPrefix(string prefix) =>
        prefix.Length > 0 && prefix.All(c => char.IsAsciiLetterOrDigit(c) || c == '-')
            ? prefix
            : throw new ArgumentException($"'{prefix}' is not a plain prefix.", nameof(prefix));
}
