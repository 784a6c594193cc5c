using System.Runtime.CompilerServices;
using Microsoft.Extensions.Logging;
using OrderService.Data.Orders;

namespace OrderService.Data;

/// <summary>
/// Reads from a standby, writes on the primary: a PostgreSQL standby (Store:PostgreSql:ReadConnectionString), or a
/// MongoDB secondary (Store:MongoDb:ReadPreference other than Primary). The same staleness contract on both
/// (docs/read-replicas.md):
/// <list type="bullet">
/// <item>GET by id: the standby first; a miss is re-read on the primary, so an order this service acknowledged is
/// never answered 404 because the standby has not replayed it yet. An order the standby has is answered as the
/// standby has it: it may lag the primary by the replication delay (an older status and version).</item>
/// <item>Batch: the ids the standby does not have are re-read on the primary, in one more query.</item>
/// <item>Customer listing: the standby only. A page may miss the newest orders, or show an older status, by the
/// replication delay: a listing has no id to miss on, so there is nothing to fall back for.</item>
/// <item>Creates, transitions (and every read they make inside their unit of work) and readiness: the primary.</item>
/// <item>A standby that has not replayed the schema yet (a new database: the service creates its tables on the
/// primary at start-up, and the standby replays them a moment later) answers nothing: each read it fails that way,
/// the listing's included, is read on the primary, never answered 500, and a warning says so at most once a minute
/// (one that keeps coming means the read connection string names a database without the tables, whose reads would
/// otherwise all go to the primary unnoticed). <paramref name="standbyLacksSchema"/> tells that error from the
/// others, which propagate as they are.</item>
/// </list>
/// A store whose list reads also come as API JSON (<see cref="IOrderJsonReads"/>: MongoDB) applies the same rules to
/// them, the batch's through <see cref="StandbyThenPrimary"/>.
/// </summary>
/// <param name="standbyLacksSchema">True for the engine's error of a table that does not exist; null: the engine has none
/// (MongoDB reads a missing collection as empty).</param>
/// <param name="logger">Where the warning about a standby without the schema goes.</param>
public sealed class StandbyReadsOrderStore(
    IOrderStore primary, IOrderStore standby, Func<Exception, bool>? standbyLacksSchema = null, ILogger? logger = null) : IOrderStore
{
    private const long WarningIntervalMilliseconds = 60_000;

    private long _lastWarned;

    public Task<CreateResult> CreateAsync(NewOrder order, CancellationToken cancellationToken) =>
        primary.CreateAsync(order, cancellationToken);

    public Task<TransitionResult> TransitionAsync(TransitionCommand command, CancellationToken cancellationToken) =>
        primary.TransitionAsync(command, cancellationToken);

    public Task<int> ForgetKeysStoredBeforeAsync(DateTimeOffset storedBefore, int limit, CancellationToken cancellationToken) =>
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

    public IAsyncEnumerable<Order> GetManyAsync(IReadOnlyCollection<Guid> ids, CancellationToken cancellationToken) =>
        StandbyThenPrimary(ids, standby.GetManyAsync, primary.GetManyAsync, static order => order.Id, cancellationToken, LacksSchema);

    /// <summary>
    /// The batch rule, for rows of any shape: the standby's rows, then the ids it did not have, read on the primary in
    /// one more query. <paramref name="idOf"/> is taken before a row is handed on, so a row valid only until the
    /// stream moves (<see cref="OrderJsonRow"/>) is fine. A standby that fails with <paramref name="standbyLacksSchema"/>
    /// has handed on nothing more: every id it did not hand on is read on the primary.
    /// </summary>
    public static async IAsyncEnumerable<TRow> StandbyThenPrimary<TRow>(
        IReadOnlyCollection<Guid> ids,
        Func<IReadOnlyCollection<Guid>, CancellationToken, IAsyncEnumerable<TRow>> fromStandby,
        Func<IReadOnlyCollection<Guid>, CancellationToken, IAsyncEnumerable<TRow>> fromPrimary,
        Func<TRow, Guid> idOf,
        [EnumeratorCancellation] CancellationToken cancellationToken,
        Func<Exception, bool>? standbyLacksSchema = null)
    {
        ArgumentNullException.ThrowIfNull(ids);
        ArgumentNullException.ThrowIfNull(fromStandby);
        ArgumentNullException.ThrowIfNull(fromPrimary);
        ArgumentNullException.ThrowIfNull(idOf);
        var found = new HashSet<Guid>();
        await using (var rows = fromStandby(ids, cancellationToken).GetAsyncEnumerator(cancellationToken))
        {
            while (await NextOrLacksSchemaAsync(rows, standbyLacksSchema))
            {
                found.Add(idOf(rows.Current));
                yield return rows.Current;
            }
        }

        var missing = ids.Where(id => !found.Contains(id)).Distinct().ToList();
        if (missing.Count == 0)
        {
            yield break;
        }

        await foreach (var row in fromPrimary(missing, cancellationToken))
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

    /// <summary>True when the standby failed for want of the schema; the first time in a minute, it says so in the log.</summary>
    private bool LacksSchema(Exception fault)
    {
        if (standbyLacksSchema?.Invoke(fault) != true)
        {
            return false;
        }

        var now = Environment.TickCount64;
        var last = Interlocked.Read(ref _lastWarned);
        if ((last == 0 || now - last >= WarningIntervalMilliseconds) && Interlocked.CompareExchange(ref _lastWarned, now, last) == last)
        {
            logger?.LogWarning(
                "The standby has no table the read needs ({Error}): reads go to the primary until it has. A new database's standby replays the schema a moment after start-up; if this warning keeps coming, the read connection string names a database without the service's tables.",
                fault.Message);
        }

        return true;
    }

    /// <summary>The next row; false at the end, or when the standby fails because it lacks the schema (a yield cannot sit in a try with a catch).</summary>
    private static async ValueTask<bool> NextOrLacksSchemaAsync<TRow>(IAsyncEnumerator<TRow> rows, Func<Exception, bool>? standbyLacksSchema)
    {
        try
        {
            return await rows.MoveNextAsync();
        }
        catch (Exception fault) when (standbyLacksSchema?.Invoke(fault) == true)
        {
            return false;
        }
    }

    /// <summary>
    /// The primary only: every replica of the service usually shares one standby, and a standby that is down
    /// must not take every replica out of the load balancer while writes still work.
    /// </summary>
    public Task CheckReadyAsync(CancellationToken cancellationToken) => primary.CheckReadyAsync(cancellationToken);
}
