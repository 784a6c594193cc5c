namespace OrderService.Data.Document;

/// <summary>The clean-up's batch: one delete in a write unit of its own.</summary>
public sealed partial class DocumentOrderStore
{
    public Task<int> ForgetKeysStoredBeforeAsync(DateTimeOffset storedBefore, int limit,
        CancellationToken cancellationToken) =>
        _connections.WriteAsync(null, async (connection, transaction) =>
        {
            using var activity = StoreTelemetry.Command(_dialect.ProviderName, "document.forget_keys",
                _dialect.DeleteExpiredKeys, _writeIsolationInForce);
            await using var command = Command(connection, transaction, _dialect.DeleteExpiredKeys);
            _dialect.AddTimestamp(command.Parameters, "before", storedBefore);
            _dialect.AddInteger(command.Parameters, "limit", limit);
            return await command.ExecuteNonQueryAsync(cancellationToken);
        }, cancellationToken);
}
