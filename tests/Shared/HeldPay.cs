using System.Data;
using System.Data.Common;

namespace OrderService.Testing;

/// <summary>
/// A pay's write to one order's row (relational layout), held open on the caller's own connection: what a reader at
/// read-uncommitted can see and one at read-committed cannot, and what a concurrent writer meets.
/// </summary>
public static class HeldPay
{
    private const string Pay =
        "UPDATE orders SET status = 'Paid', version = version + 1 WHERE id = @id AND status = 'Created'";

    /// <summary>
    /// Marks the Created order <paramref name="id"/> (as the engine stores it) Paid in a transaction on the open
    /// <paramref name="connection"/>, awaits <paramref name="whileHeld"/>, then rolls back, or commits when
    /// <paramref name="commit"/>. False when no row matched.
    /// </summary>
    public static async Task<bool> HoldAsync(DbConnection connection, object id, Func<Task> whileHeld,
        CancellationToken cancellationToken, bool commit = false)
    {
        await using var transaction = await connection.BeginTransactionAsync(IsolationLevel.ReadCommitted,
            cancellationToken);
        await using var command = connection.CreateCommand();
        command.Transaction = transaction;
        command.CommandText = Pay;
        var parameter = command.CreateParameter();
        parameter.ParameterName = "@id";
        parameter.Value = id;
        command.Parameters.Add(parameter);
        if (await command.ExecuteNonQueryAsync(cancellationToken) != 1)
        {
            return false;
        }

        try
        {
            await whileHeld();
        }
        catch
        {
            await transaction.RollbackAsync(CancellationToken.None);
            throw;
        }

        await (commit ? transaction.CommitAsync(cancellationToken) : transaction.RollbackAsync(CancellationToken.None));
        return true;
    }
}
