using System.Runtime.CompilerServices;
using Microsoft.Extensions.Logging;
using OrderService.Data.Orders;

namespace OrderService.Data;

/// <summary>Reads from a standby, writes on the primary: a PostgreSQL standby, or a MongoDB secondary.</summary>
public sealed class StandbyReadsOrderStore(
    IOrderStore primary, IOrderStore standby, Func<Exception, bool>? standbyLacksSchema = null, ILogger? logger = null)
        : IOrderStore
{
    private const long WarningIntervalMilliseconds = 60_000;

    private long _lastWarned;

    public Task<CreateResult> CreateAsync(NewOrder order, CancellationToken cancellationToken) =>
        primary.CreateAsync(order, cancellationToken);

    public Task<TransitionResult> TransitionAsync(TransitionCommand command, CancellationToken cancellationToken) =>
        primary.TransitionAsync(command, cancellationToken);

    public Task<int> ForgetKeysStoredBeforeAsync(DateTimeOffset storedBefore, int limit,
        CancellationToken cancellationToken) =>
        primary.ForgetKeysStoredBeforeAsync(storedBefore, limit, cancellationToken);

    public async Task<Order?> GetAsync(Guid id, CancellationToken cancellationToken)
    {
        Order? order;
        try
        {
            order = await standby.GetAsync(id, cancellationToken);
        }
        catch (Exception fault) when (LacksSchema(fault))
        {
            order = null;
        }

        return order ?? await primary.GetAsync(id, cancellationToken);
    }

    /// <summary>The standby's rows, then the missing ids from the primary.</summary>
    public async IAsyncEnumerable<Order> GetManyAsync(IReadOnlyCollection<Guid> ids,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(ids);
        var found = new HashSet<Guid>();
        await using (var rows = standby.GetManyAsync(ids, cancellationToken).GetAsyncEnumerator(cancellationToken))
        {
            while (await NextOrLacksSchemaAsync(rows))
            {
                found.Add(rows.Current.Id);
                yield return rows.Current;
            }
        }

        var missing = ids.Where(id => !found.Contains(id)).Distinct().ToList();
        if (missing.Count == 0)
        {
            yield break;
        }

        await foreach (var row in primary.GetManyAsync(missing, cancellationToken))
        {
            yield return row;
        }
    }

    public async Task<OrderPage> ListByCustomerAsync(CustomerOrdersQuery query, CancellationToken cancellationToken)
    {
        try
        {
            return await standby.ListByCustomerAsync(query, cancellationToken);
        }
        catch (Exception fault) when (LacksSchema(fault))
        {
            return await primary.ListByCustomerAsync(query, cancellationToken);
        }
    }

    private bool LacksSchema(Exception fault)
    {
        if (standbyLacksSchema?.Invoke(fault) != true)
        {
            return false;
        }

        var now = Environment.TickCount64;
        var last = Interlocked.Read(ref _lastWarned);
        if ((last == 0 || now - last >= WarningIntervalMilliseconds)
            && Interlocked.CompareExchange(ref _lastWarned, now, last) == last)
        {
            logger?.LogWarning(
                "The standby has no table the read needs ({Error}): reads go to the primary until it has. A new " +
                "database's standby replays the schema a moment after start-up; if this warning keeps coming, the " +
                "read connection string names a database without the service's tables.",
                fault.Message);
        }

        return true;
    }

    private async ValueTask<bool> NextOrLacksSchemaAsync(IAsyncEnumerator<Order> rows)
    {
        try
        {
            return await rows.MoveNextAsync();
        }
        catch (Exception fault) when (LacksSchema(fault))
        {
            return false;
        }
    }

    /// <summary>The primary only: a standby that is down must not take every replica out of service.</summary>
    public Task CheckReadyAsync(CancellationToken cancellationToken) => primary.CheckReadyAsync(cancellationToken);
}
