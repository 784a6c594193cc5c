using System.Data;
using System.Data.Common;

namespace OrderService.Data.Relational;

/// <summary>
/// The parameters of <see cref="SqlDialect.CreateOrder"/>. The property types are what Dapper declares for each
/// parameter; <see cref="AddTo"/> binds the same to a group commit's batch command. Key and RequestHash only
/// with an Idempotency-Key (the statement names them only then).
/// </summary>
internal sealed class CreateParameters : IStatementParameters
{
    public required object Id { get; init; }

    public required string CustomerId { get; init; }

    public required decimal Total { get; init; }

    public required object At { get; init; }

    public required string Lines { get; init; }

    public required string Data { get; init; }

    public string? Key { get; init; }

    public string? RequestHash { get; init; }

    public void AddTo(DbBatchCommand command)
    {
        StatementParameter.Add(command, nameof(Id), Id);
        StatementParameter.Add(command, nameof(CustomerId), CustomerId, DbType.String);
        StatementParameter.Add(command, nameof(Total), Total, DbType.Decimal);
        StatementParameter.Add(command, nameof(At), At);
        StatementParameter.Add(command, nameof(Lines), Lines, DbType.String);
        StatementParameter.Add(command, nameof(Data), Data, DbType.String);
        if (Key is not null)
        {
            StatementParameter.Add(command, nameof(Key), Key, DbType.String);
            StatementParameter.Add(command, nameof(RequestHash), RequestHash, DbType.String);
        }
    }
}

/// <summary>
/// The parameters of a transition's write (<see cref="SqlDialect.Transition"/>, <see cref="SqlDialect.TransitionWrite"/>).
/// Expected only when the write checks the version, Key and RequestHash only with an Idempotency-Key.
/// </summary>
internal sealed class TransitionParameters : IStatementParameters
{
    public required object Id { get; init; }

    public required object At { get; init; }

    public required string Data { get; init; }

    public int? Expected { get; init; }

    public string? Key { get; init; }

    public string? RequestHash { get; init; }

    public void AddTo(DbBatchCommand command)
    {
        StatementParameter.Add(command, nameof(Id), Id);
        StatementParameter.Add(command, nameof(At), At);
        StatementParameter.Add(command, nameof(Data), Data, DbType.String);
        if (Expected is not null)
        {
            StatementParameter.Add(command, nameof(Expected), Expected, DbType.Int32);
        }

        if (Key is not null)
        {
            StatementParameter.Add(command, nameof(Key), Key, DbType.String);
            StatementParameter.Add(command, nameof(RequestHash), RequestHash, DbType.String);
        }
    }
}
