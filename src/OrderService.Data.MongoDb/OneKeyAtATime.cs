namespace OrderService.Data.MongoDb;

/// <summary>Creates with one Idempotency-Key take turns here: FerretDB deadlocks concurrent inserts of a key.</summary>
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
            await turn.Gate.WaitAsync(cancellationToken);
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
