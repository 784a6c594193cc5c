using Npgsql;
using NpgsqlTypes;

namespace OrderService.Data.PostgreSql;

/// <summary>The clean-up's batch (see <see cref="IOrderStore.ForgetKeysStoredBeforeAsync"/>): one delete in autocommit.</summary>
public sealed partial class DocumentOrderStore
{
    public async Task<int> ForgetKeysStoredBeforeAsync(DateTimeOffset storedBefore, int limit, CancellationToken cancellationToken)
    {
        await using var connection = await database.OpenAsync("document-forget-keys", cancellationToken).ConfigureAwait(false);
        using var activity = StoreTelemetry.Command(Provider, "document.forget_keys", DocumentSql.DeleteExpiredKeys, AutocommitIsolation);
        await using var command = new NpgsqlCommand(DocumentSql.DeleteExpiredKeys, connection);
        command.Parameters.Add(new NpgsqlParameter<DateTimeOffset>("before", NpgsqlDbType.TimestampTz) { TypedValue = storedBefore.ToUniversalTime() });
        command.Parameters.Add(new NpgsqlParameter<int>("limit", NpgsqlDbType.Integer) { TypedValue = limit });
        return await command.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
    }
}
