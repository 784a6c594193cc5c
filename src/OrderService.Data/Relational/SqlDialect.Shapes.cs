namespace OrderService.Data.Relational;

/// <summary>
/// Where a dialect's statements take another shape than the base contract, and the store must read their
/// results differently: each flag names one such difference, and the statement's own doc says what it changes.
/// </summary>
public abstract partial class SqlDialect
{
    /// <summary>
    /// True when <see cref="CreateOrder"/> with a key has only result set (1): the store then looks the key up with
    /// <see cref="SelectIdempotencyKey"/> in a command of its own, and only when the create inserted nothing.
    /// </summary>
    public virtual bool CreateLooksUpKeySeparately => false;

    /// <summary>
    /// True when a keyed create's order id is derived from its key (<see cref="CreatedOrderId"/>) and
    /// <see cref="SelectIdempotencyKey"/> names the order (<c>@Id</c>): keys are unique per order there.
    /// </summary>
    public virtual bool KeyDecidesCreatedOrderId => false;

    /// <summary>The order id of a create with Idempotency-Key <paramref name="key"/>, where <see cref="KeyDecidesCreatedOrderId"/>.</summary>
    public virtual Guid CreatedOrderId(string key) => throw new NotSupportedException("This dialect keeps the id the create brings.");

    /// <summary>
    /// True when <see cref="Transition"/> has ONE result set: the order row after the write (the columns of
    /// <see cref="SelectOrderById"/>), only when the write happened. The store reads the order afresh when no row came
    /// back (to tell 404 from 409) and when the row's events are not 1..version: on PostgreSQL the one statement's
    /// snapshot can miss a step committed just before its write.
    /// </summary>
    public virtual bool TransitionReturnsWrittenOrder => false;
}
