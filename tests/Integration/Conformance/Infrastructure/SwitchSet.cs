using OrderService.Data;

namespace OrderService.Integration.Tests.Conformance.Infrastructure;

/// <summary>
/// One combination of the relational switches (issue 4). Theory data carries its <see cref="Key"/>,
/// a plain string, so every combination is its own visible, serializable test case.
/// </summary>
public sealed record SwitchSet(UnitOfWork UnitOfWork, WriteIsolation WriteIsolation, ReadIsolation ReadIsolation, BatchFilter BatchFilter)
{
    public static readonly SwitchSet Defaults = new(UnitOfWork.PerRequest, WriteIsolation.ReadCommitted, ReadIsolation.ReadCommitted, BatchFilter.Json);

    public string Key => $"{UnitOfWork}/{WriteIsolation}/{ReadIsolation}/{BatchFilter}";

    /// <summary>Every combination of UnitOfWork x WriteIsolation x ReadIsolation x BatchFilter.</summary>
    public static IEnumerable<SwitchSet> All() =>
        from unitOfWork in Enum.GetValues<UnitOfWork>()
        from write in Enum.GetValues<WriteIsolation>()
        from read in Enum.GetValues<ReadIsolation>()
        from batch in Enum.GetValues<BatchFilter>()
        select new SwitchSet(unitOfWork, write, read, batch);

    /// <summary>
    /// Six combinations that hold every pair of values of any two switches (the defaults first). Each switch maps
    /// to its own statement or transaction option, so a pair is the widest interaction the code has.
    /// </summary>
    public static IReadOnlyList<SwitchSet> Pairwise { get; } =
    [
        Defaults,
        new(UnitOfWork.PerCall, WriteIsolation.ReadCommitted, ReadIsolation.ReadUncommitted, BatchFilter.InList),
        new(UnitOfWork.PerRequest, WriteIsolation.RepeatableRead, ReadIsolation.ReadUncommitted, BatchFilter.InList),
        new(UnitOfWork.PerCall, WriteIsolation.RepeatableRead, ReadIsolation.ReadCommitted, BatchFilter.Json),
        new(UnitOfWork.PerRequest, WriteIsolation.Serializable, ReadIsolation.ReadUncommitted, BatchFilter.Json),
        new(UnitOfWork.PerCall, WriteIsolation.Serializable, ReadIsolation.ReadCommitted, BatchFilter.InList),
    ];

    public static SwitchSet Parse(string key)
    {
        var parts = key.Split('/');
        return new SwitchSet(
            Enum.Parse<UnitOfWork>(parts[0]),
            Enum.Parse<WriteIsolation>(parts[1]),
            Enum.Parse<ReadIsolation>(parts[2]),
            Enum.Parse<BatchFilter>(parts[3]));
    }

    public IEnumerable<KeyValuePair<string, string?>> Settings()
    {
        yield return new("Store:UnitOfWork", UnitOfWork.ToString());
        yield return new("Store:WriteIsolation", WriteIsolation.ToString());
        yield return new("Store:ReadIsolation", ReadIsolation.ToString());
        yield return new("Store:BatchFilter", BatchFilter.ToString());
    }

    public override string ToString() => Key;
}
