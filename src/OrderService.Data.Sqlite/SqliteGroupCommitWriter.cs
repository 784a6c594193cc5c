using System.Diagnostics;
using System.Threading.Channels;
using Microsoft.Data.Sqlite;

namespace OrderService.Data.Sqlite;

/// <summary>Group commit for SQLite: a savepoint per write, each answered after the group's one commit.</summary>
internal sealed class SqliteGroupCommitWriter : IAsyncDisposable
{
    private readonly Channel<PendingWrite> _queue = Channel.CreateUnbounded<PendingWrite>(
        new UnboundedChannelOptions { SingleReader = true, SingleWriter = false });

    private readonly Func<SqliteConnection> _openConnection;
    private readonly int _maxBatch;
    private readonly Thread _thread;
    private SqliteConnection? _connection;
    private ControlStatements? _control;

    public SqliteGroupCommitWriter(Func<SqliteConnection> openConnection, int maxBatch)
    {
        _openConnection = openConnection;
        _maxBatch = maxBatch;
        _thread = new Thread(Run) { IsBackground = true, Name = "sqlite-group-commit" };
        _thread.Start();
    }

    public Task<T> ExecuteAsync<T>(Func<SqliteConnection, T> work, CancellationToken cancellationToken)
    {
        var pending = new PendingWrite<T>(work, cancellationToken);
        ObjectDisposedException.ThrowIf(!_queue.Writer.TryWrite(pending), this);

        return pending.Task;
    }

    public ValueTask DisposeAsync()
    {
        _queue.Writer.TryComplete();
        _thread.Join(TimeSpan.FromSeconds(10));
        _control?.Dispose();
        _connection?.Dispose();
        return ValueTask.CompletedTask;
    }

    private void Run()
    {
        var batch = new List<PendingWrite>(_maxBatch);
        while (_queue.Reader.WaitToReadAsync().AsTask().GetAwaiter().GetResult())
        {
            batch.Clear();
            while (batch.Count < _maxBatch && _queue.Reader.TryRead(out var next))
            {
                if (!next.IsCancelled)
                {
                    batch.Add(next);
                }
            }

            if (batch.Count > 0)
            {
                CommitGroup(batch);
            }
        }
    }

    private void CommitGroup(List<PendingWrite> batch)
    {
        try
        {
            var connection = _connection ??= _openConnection();
            var control = _control ??= new ControlStatements(connection);
            control.Begin.ExecuteNonQuery();
            foreach (var write in batch)
            {
                control.Savepoint.ExecuteNonQuery();
                try
                {
                    write.Run(connection);
                    control.Release.ExecuteNonQuery();
                }
                catch (Exception ex)
                {
                    SqliteDatabase.Execute(connection, "ROLLBACK TO w; RELEASE w;");
                    write.Fail(ex);
                }
            }

            control.Commit.ExecuteNonQuery();
            StoreTelemetry.GroupCommitted(SqliteDatabase.ProviderName, batch.Count);
            foreach (var write in batch)
            {
                write.Complete();
            }
        }
        catch (Exception ex)
        {
            // The commit (or the connection) failed: nothing of this group is durable, so every write in it fails.
            TryRollbackAndDrop();
            foreach (var write in batch)
            {
                write.Fail(ex);
            }
        }
    }

    private void TryRollbackAndDrop()
    {
        if (_connection is not null)
        {
            SqliteDatabase.TryRollback(_connection);
        }

        _control?.Dispose();
        _control = null;
        _connection?.Dispose();
        _connection = null;
    }

    private sealed class ControlStatements(SqliteConnection connection) : IDisposable
    {
        public SqliteCommand Begin { get; } = Prepared(connection, "BEGIN IMMEDIATE;");

        public SqliteCommand Savepoint { get; } = Prepared(connection, "SAVEPOINT w;");

        public SqliteCommand Release { get; } = Prepared(connection, "RELEASE w;");

        public SqliteCommand Commit { get; } = Prepared(connection, "COMMIT;");

        public void Dispose()
        {
            Begin.Dispose();
            Savepoint.Dispose();
            Release.Dispose();
            Commit.Dispose();
        }

        private static SqliteCommand Prepared(SqliteConnection connection, string sql)
        {
            var command = connection.CreateCommand();
            command.CommandText = sql;
            command.Prepare();
            return command;
        }
    }

    internal abstract class PendingWrite
    {
        public abstract bool IsCancelled { get; }

        public abstract void Run(SqliteConnection connection);

        public abstract void Complete();

        public abstract void Fail(Exception exception);
    }

    private sealed class PendingWrite<T>(Func<SqliteConnection, T> work, CancellationToken cancellationToken)
        : PendingWrite
    {
        private readonly TaskCompletionSource<T> _completion = new(TaskCreationOptions.RunContinuationsAsynchronously);
        // The writer thread runs the work outside the request's flow: its span keeps the commands in the trace.
        private readonly Activity? _caller = Activity.Current;
        private T? _result;
        private bool _failed;

        public Task<T> Task => _completion.Task;

        public override bool IsCancelled => QueuedWrites.Abandoned(_completion, cancellationToken);

        public override void Run(SqliteConnection connection)
        {
            var writer = Activity.Current;
            Activity.Current = _caller;
            try
            {
                _result = work(connection);
            }
            finally
            {
                Activity.Current = writer;
            }
        }

        public override void Complete()
        {
            if (!_failed)
            {
                _completion.TrySetResult(_result!);
            }
        }

        public override void Fail(Exception exception)
        {
            _failed = true;
            _completion.TrySetException(exception);
        }
    }
}
