namespace OrderService.Data.Relational;

/// <summary>Where a dialect's statements differ from the base contract, and how the store reads them.</summary>
public abstract partial class SqlDialect
{
    /// <summary>
    /// True when <see cref="CreateOrder"/> with a key has only one result set: the store then looks the key up itself.
    /// </summary>
    public virtual bool CreateLooksUpKeySeparately => false;

    /// <summary>True when a keyed create's order id is derived from its key.</summary>
    public virtual bool KeyDecidesCreatedOrderId => false;

    /// <summary>The order id of a create with key <paramref name="key"/>, where the key decides it.</summary>
    public virtual Guid CreatedOrderId(string key) =>
        throw new NotSupportedException("This dialect keeps the id the create brings.");

    /// <summary>
    /// True when <see cref="Transition"/> has ONE result set: the order row after the write, only when it happened.
    /// </summary>
    public virtual bool TransitionReturnsWrittenOrder => false;
}
