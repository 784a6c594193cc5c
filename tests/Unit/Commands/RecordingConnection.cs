using System.Data;
using System.Data.Common;
using System.Diagnostics.CodeAnalysis;
using Microsoft.Data.SqlClient;

namespace OrderService.Unit.Tests.Commands;

/// <summary>
/// A connection that never reaches a server: every command Dapper builds on it is a REAL SqlCommand with
/// real SqlParameters (what SqlClient would send), recorded when it is executed. The answer to each
/// command comes from <see cref="Respond"/> as plain DataTables, so the store's flows run to the end and
/// send every statement they can send. Only the network is missing; nothing about the command is faked.
/// </summary>
internal sealed class RecordingConnection(Func<string, DataTable[]> respond, List<RecordedCommand> log) : DbConnection
{
    private ConnectionState _state = ConnectionState.Closed;

    public Func<string, DataTable[]> Respond { get; } = respond;

    [AllowNull]
    public override string ConnectionString { get; set; } = "";

    public override string Database => "orders";

    public override string DataSource => "recording";

    public override string ServerVersion => "16.00.0000";

    public override ConnectionState State => _state;

    public override void ChangeDatabase(string databaseName)
    {
    }

    public override void Close() => _state = ConnectionState.Closed;

    public override void Open() => _state = ConnectionState.Open;

    internal void Record(RecordedCommand command) => log.Add(command);

    protected override DbTransaction BeginDbTransaction(IsolationLevel isolationLevel) => new RecordingTransaction(this, isolationLevel);

    protected override DbCommand CreateDbCommand() => new RecordingCommand(this);
}

/// <summary>One command as the store sent it: the SqlCommand (text + parameters) and the transaction's isolation, if any.</summary>
internal sealed record RecordedCommand(SqlCommand Command, IsolationLevel? Isolation)
{
    public string Text => Command.CommandText;

    public IEnumerable<SqlParameter> Parameters => Command.Parameters.Cast<SqlParameter>();
}

internal sealed class RecordingTransaction(RecordingConnection connection, IsolationLevel isolationLevel) : DbTransaction
{
    public override IsolationLevel IsolationLevel { get; } = isolationLevel;

    protected override DbConnection DbConnection => connection;

    public override void Commit()
    {
    }

    public override void Rollback()
    {
    }
}

internal sealed class RecordingCommand(RecordingConnection connection) : DbCommand
{
    private readonly SqlCommand _command = new();

    [AllowNull]
    public override string CommandText
    {
        get => _command.CommandText;
        set => _command.CommandText = value;
    }

    public override int CommandTimeout
    {
        get => _command.CommandTimeout;
        set => _command.CommandTimeout = value;
    }

    public override CommandType CommandType
    {
        get => _command.CommandType;
        set => _command.CommandType = value;
    }

    public override bool DesignTimeVisible { get; set; }

    public override UpdateRowSource UpdatedRowSource { get; set; }

    protected override DbConnection? DbConnection { get; set; }

    protected override DbParameterCollection DbParameterCollection => _command.Parameters;

    protected override DbTransaction? DbTransaction { get; set; }

    public override void Cancel()
    {
    }

    public override int ExecuteNonQuery()
    {
        Record();
        return 0;
    }

    public override object? ExecuteScalar()
    {
        Record();
        return 1;
    }

    public override void Prepare()
    {
    }

    protected override DbParameter CreateDbParameter() => _command.CreateParameter();

    protected override DbDataReader ExecuteDbDataReader(CommandBehavior behavior)
    {
        Record();
        return new DataTableReader(connection.Respond(CommandText));
    }

    private void Record() => connection.Record(new RecordedCommand(_command, (DbTransaction as RecordingTransaction)?.IsolationLevel));
}
