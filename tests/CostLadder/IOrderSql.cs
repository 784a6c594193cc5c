namespace OrderService.CostLadder;

/// <summary>The workflow's steps as SQL of the ladder's own (rungs a, a-gc and b): one round trip each, or one grouped statement each.</summary>
public interface IOrderSql
{
    Task<OrderReply> CreateAsync(string customerId, IReadOnlyList<OrderLine> lines, CancellationToken cancellationToken);

    /// <summary>The order after the step, or null when it is missing, not in <see cref="Transition.From"/> or not at
    /// <paramref name="version"/>.</summary>
    Task<OrderReply?> MoveAsync(Guid id, Transition step, int? version, CancellationToken cancellationToken);

    /// <summary>The order as it is, for a step that did not apply (rung b's 404 and 409).</summary>
    Task<OrderReply?> FindAsync(Guid id, CancellationToken cancellationToken);
}
