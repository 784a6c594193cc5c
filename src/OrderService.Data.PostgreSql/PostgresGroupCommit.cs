using System.Data.Common;
using System.Threading.Channels;
using Npgsql;
using OrderService.Data.Relational;

namespace OrderService.Data.PostgreSql;

public sealed class PostgresGroupCommit : IGroupCommit, IAsyncDisposable
{
    private readonly Channel<PendingStatement> _queue = Channel.CreateUnbounded<PendingStatement>();

    private readonly PostgresDatabase _database;
    private readonly int _maxBatch;
    private readonly int _commandTimeoutSeconds;
    private readonly Task[] _writers;
    private long _arrivals;

    public PostgresGroupCommit(PostgresDatabase database, int writers, int maxBatch, int commandTimeoutSeconds)
    {
        _database = database;
        _maxBatch = maxBatch;
        _commandTimeoutSeconds = commandTimeoutSeconds;

        // The loops live as long as the store: they must not carry the span or the scope of whatever request built it.
        using (ExecutionContext.SuppressFlow())
        {
            _writers = new Task[writers];
            for (var i = 0; i < writers; i++)
            {
                _writers[i] = Task.Run(RunAsync);
            }
        }
    }

    public Task<GroupedResult<T>> ExecuteAsync<T>(GroupedStatement statement, Func<DbDataReader, T> readRow,
        CancellationToken cancellationToken)
    {
        cancellationToken.ThrowIfCancellationRequested();
        var pending = new PendingStatement<T>(statement, Interlocked.Increment(ref _arrivals), readRow,
            cancellationToken);
        ObjectDisposedException.ThrowIf(!_queue.Writer.TryWrite(pending), this);

        // A caller that times out stops waiting; its statement still runs with its group (a rerun sees Interrupted).
        return cancellationToken.CanBeCanceled ? pending.Task.WaitAsync(cancellationToken) : pending.Task;
    }

    /// <summary>Takes no more writes; the loops answer what is queued, then end.</summary>
    public async ValueTask DisposeAsync()
    {
        _queue.Writer.TryComplete();
        try
        {
            await Task.WhenAll(_writers).WaitAsync(TimeSpan.FromSeconds(_commandTimeoutSeconds + 5));
        }
        catch (TimeoutException)
        {
            // A group still in flight past its own time-out: its callers get the fault when the pool closes.
        }
    }

    private async Task RunAsync()
    {
        var group = new List<PendingStatement>(_maxBatch);
        while (await _queue.Reader.WaitToReadAsync())
        {
            group.Clear();
            while (group.Count < _maxBatch && _queue.Reader.TryRead(out var next))
            {
                if (!next.IsCancelled)
                {
                    group.Add(next);
                }
            }

            if (group.Count > 0)
            {
                group.Sort(PendingStatement.LockOrder);
                await CommitGroupAsync(group);
            }
        }
    }

    private async Task CommitGroupAsync(List<PendingStatement> group)
    {
        try
        {
            await using (var connection = await _database.OpenAsync("group-write", CancellationToken.None))
            await using (var batch = connection.CreateBatch())
            {
                batch.Timeout = _commandTimeoutSeconds;
                foreach (var statement in group)
                {
                    var command = batch.CreateBatchCommand();
                    command.CommandText = statement.Statement.Sql;
                    statement.Statement.Parameters.AddTo(new ParameterTarget(command));
                    batch.BatchCommands.Add(command);
                }

                try
                {
                    await ReadGroupAsync(batch, group);
                }
                catch (Exception fault)
                {
                    _database.DiscardAfter(fault);
                    throw;
                }
            }
        }
        catch (PostgresException rolledBack) when (
            PostgresTransientFaults.Instance.Classify(rolledBack) is StoreFault.RolledBack or StoreFault.Permanent)
        {
            foreach (var statement in group)
            {
                statement.RunAlone();
            }

            return;
        }
        catch (Exception fault)
        {
            foreach (var statement in group)
            {
                statement.Fail(fault);
            }

            return;
        }

        StoreTelemetry.GroupCommitted(PostgresDatabase.ProviderName, group.Count);
        foreach (var statement in group)
        {
            statement.Complete();
        }
    }

    private static async Task ReadGroupAsync(NpgsqlBatch batch, List<PendingStatement> group)
    {
        await using var reader = await batch.ExecuteReaderAsync();
        for (var i = 0; i < group.Count; i++)
        {
            if (i > 0 && !await reader.NextResultAsync())
            {
                throw new InvalidOperationException(
                    $"A grouped statement returned no result set ({group[i].Statement.Sql}).");
            }

            if (await reader.ReadAsync())
            {
                group[i].ReadRow(reader);
            }
        }

        // The commit is the batch's Sync: only past it (ReadyForQuery, read here) is the group durable.
        while (await reader.NextResultAsync())
        {
        }
    }

    private abstract class PendingStatement(GroupedStatement statement, long arrival)
    {
        /// <summary>By order id, then by arrival: the statements of one order keep the order they came in.</summary>
        public static readonly Comparison<PendingStatement> LockOrder = static (a, b) =>
            a.Statement.OrderId.CompareTo(b.Statement.OrderId) is var byOrder and not 0
                ? byOrder
                : a._arrival.CompareTo(b._arrival);

        private readonly long _arrival = arrival;

        public GroupedStatement Statement { get; } = statement;

        public abstract bool IsCancelled { get; }

        public abstract void ReadRow(DbDataReader reader);

        public abstract void Complete();

        public abstract void RunAlone();

        public abstract void Fail(Exception exception);
    }

    private sealed class PendingStatement<T>(GroupedStatement statement, long arrival, Func<DbDataReader, T> readRow,
        CancellationToken cancellationToken)
        : PendingStatement(statement, arrival)
    {
        private readonly TaskCompletionSource<GroupedResult<T>> _completion =
            new(TaskCreationOptions.RunContinuationsAsynchronously);
        private GroupedResult<T> _result = new(RanInGroup: true, HasRow: false, Row: default);
        private Exception? _readFailure;

        public Task<GroupedResult<T>> Task => _completion.Task;

        public override bool IsCancelled => QueuedWrites.Abandoned(_completion, cancellationToken);

        public override void ReadRow(DbDataReader reader)
        {
            try
            {
                _result = new GroupedResult<T>(RanInGroup: true, HasRow: true, readRow(reader));
            }
            catch (Exception failure)
            {
                // One unreadable row must not stop the group's other statements from being read and answered.
                _readFailure = failure;
            }
        }

        public override void Complete()
        {
            if (_readFailure is not null)
            {
                _completion.TrySetException(_readFailure);
            }
            else
            {
                _completion.TrySetResult(_result);
            }
        }

        public override void RunAlone() => _completion.TrySetResult(default);

        public override void Fail(Exception exception) => _completion.TrySetException(exception);
    }
}
