using System.Diagnostics;
using Microsoft.Data.Sqlite;

namespace OrderService.Data.Sqlite;

/// <summary>What the writer's queue holds.</summary>
internal sealed partial class SqliteGroupCommitWriter
{
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
