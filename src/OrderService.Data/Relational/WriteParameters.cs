using System.Data;

namespace OrderService.Data.Relational;

/// <summary>The parameters of <see cref="SqlDialect.CreateOrder"/>, typed as Dapper would type them.</summary>
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

    public void AddTo(ParameterTarget target)
    {
        target.Add(nameof(Id), Id);
        target.Add(nameof(CustomerId), CustomerId, DbType.String);
        target.Add(nameof(Total), Total, DbType.Decimal);
        target.Add(nameof(At), At);
        target.Add(nameof(Lines), Lines, DbType.String);
        target.Add(nameof(Data), Data, DbType.String);
        if (Key is not null)
        {
            target.Add(nameof(Key), Key, DbType.String);
            target.Add(nameof(RequestHash), RequestHash, DbType.String);
        }
    }
}

/// <summary>The parameters of a transition's write.</summary>
internal sealed class TransitionParameters : IStatementParameters
{
    public required object Id { get; init; }

    public required object At { get; init; }

    public required string Data { get; init; }

    public int? Expected { get; init; }

    public string? Key { get; init; }

    public string? RequestHash { get; init; }

    public void AddTo(ParameterTarget target)
    {
        target.Add(nameof(Id), Id);
        target.Add(nameof(At), At);
        target.Add(nameof(Data), Data, DbType.String);
        if (Expected is not null)
        {
            target.Add(nameof(Expected), Expected, DbType.Int32);
        }

        if (Key is not null)
        {
            target.Add(nameof(Key), Key, DbType.String);
            target.Add(nameof(RequestHash), RequestHash, DbType.String);
        }
    }
}
