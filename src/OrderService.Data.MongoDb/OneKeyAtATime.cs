namespace OrderService.Data.MongoDb;

/// <summary>
/// Creates that carry the same Idempotency-Key take turns inside this process; creates with other keys never wait.
/// Why: FerretDB (DocumentDB) enforces a unique index with a PostgreSQL exclusion constraint, and concurrent inserts of
/// one key deadlock there instead of waiting for each other. Twenty at once made 8 deadlocks per round and took up to
/// 16 s on an idle machine (docs/stores/ferretdb.md). Taking turns, the first insert commits and every later one meets
/// the duplicate key at once and answers the replay. MongoDB itself needs no turns, and they cost it nothing it would
/// not spend anyway: all but the first of those inserts fail. Replicas still race each other; a deadlock there is
/// rolled back and rerun (<see cref="MongoTransientFaults"/>).
/// </summary>
internal sealed class OneKeyAtATime
{
    private readonly Dictionary<string, Turn> _turns = new(StringComparer.Ordinal);

    /// <summary>How many keys have a create running or waiting (none once every turn is handed back).</summary>
    public int KeysInUse
    {
        get
        {
            lock (_turns)
            {
                return _turns.Count;
            }
        }
    }

    /// <summary>Waits for the key's turn; disposing the result hands the turn on.</summary>
    public async ValueTask<Held> EnterAsync(string key, CancellationToken cancellationToken)
    {
        Turn turn;
        lock (_turns)
        {
            if (!_turns.TryGetValue(key, out turn!))
            {
                _turns[key] = turn = new Turn();
            }

            turn.Waiters++;
        }

        try
        {
            await turn.Gate.WaitAsync(cancellationToken).ConfigureAwait(false);
        }
        catch
        {
            Leave(key, turn);
            throw;
        }

        return new Held(this, key, turn);
    }

    private void Leave(string key, Turn turn)
    {
        lock (_turns)
        {
            if (--turn.Waiters == 0)
            {
                _turns.Remove(key);
                turn.Gate.Dispose();
            }
        }
    }

    public readonly struct Held(OneKeyAtATime owner, string key, Turn turn) : IDisposable
    {
        public void Dispose()
        {
            turn.Gate.Release();
            owner.Leave(key, turn);
        }
    }

    internal sealed class Turn
    {
        public SemaphoreSlim Gate { get; } = new(1, 1);

        public int Waiters { get; set; }
    }
}
