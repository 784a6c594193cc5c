using Npgsql;
using NpgsqlTypes;

namespace OrderService.Data.PostgreSql;

/// <summary>The clean-up's batch (see <see cref="IOrderStore.ForgetKeysStoredBeforeAsync"/>): one delete in autocommit.</summary>
public sealed partial class DocumentOrderStore
{
    public async Task<int> ForgetKeysStoredBeforeAsync(DateTimeOffset storedBefore, int limit, CancellationToken cancellationToken)
    {
        await using var connection = await database.OpenAsync("document-forget-keys", cancellationToken).ConfigureAwait(false);
        var sql = _citus ? Citus.CitusDocumentSql.DeleteExpiredKeys : DocumentSql.DeleteExpiredKeys;
        using var activity = StoreTelemetry.Command(Provider, "document.forget_keys", sql, AutocommitIsolation);
        await using var command = new NpgsqlCommand(sql, connection);
        command.Parameters.Add(new NpgsqlParameter<DateTimeOffset>("before", NpgsqlDbType.TimestampTz) { TypedValue = storedBefore.ToUniversalTime() });
        command.Parameters.Add(new NpgsqlParameter<int>("limit", NpgsqlDbType.Integer) { TypedValue = limit });
        return await command.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
    }
}
