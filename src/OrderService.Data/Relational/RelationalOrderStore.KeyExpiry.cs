using System.Data;
using Dapper;

namespace OrderService.Data.Relational;

/// <summary>The clean-up's batch: one delete, committed on its own.</summary>
public sealed partial class RelationalOrderStore
{
    public Task<int> ForgetKeysStoredBeforeAsync(DateTimeOffset storedBefore, int limit,
        CancellationToken cancellationToken) =>
        _connections.WriteAsync(null, async (connection, transaction) =>
        {
            var sql = _dialect.DeleteExpiredKeys;
            using (StoreTelemetry.Command(_dialect.ProviderName, "forget_keys", sql, _createIsolationInForce))
            {
                return await connection.ExecuteAsync(new CommandDefinition(
                    sql, new StatementArguments().Value("Before", _dialect.Timestamp(storedBefore.ToUniversalTime()))
                        .Int32("Limit", limit), transaction, _commandTimeout, CommandType.Text, CommandFlags.None,
                        cancellationToken));
            }
        }, cancellationToken);
}
