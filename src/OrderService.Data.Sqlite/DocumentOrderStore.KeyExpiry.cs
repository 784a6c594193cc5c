using OrderService.Data.Orders;

namespace OrderService.Data.Sqlite;

/// <summary>The clean-up's batch (see <see cref="IOrderStore.ForgetKeysStoredBeforeAsync"/>): one delete, one write of the writer's.</summary>
public sealed partial class DocumentOrderStore
{
    public Task<int> ForgetKeysStoredBeforeAsync(DateTimeOffset storedBefore, int limit, CancellationToken cancellationToken) =>
        database.WriteAsync(connection =>
        {
            using var activity = StoreTelemetry.Command(Provider, "document.forget_keys", DocumentSql.DeleteExpiredKeys, WriteIsolationName);
            using var command = connection.CreateCommand();
            command.CommandText = DocumentSql.DeleteExpiredKeys;
            command.Parameters.AddWithValue("@before", Timestamps.ToText(storedBefore));
            command.Parameters.AddWithValue("@limit", limit);
            return command.ExecuteNonQuery();
        }, cancellationToken);
}
