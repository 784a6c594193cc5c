namespace OrderService.Data.Relational;

/// <summary>Order ids as the batch read sends them: each once, in the order of their canonical text.</summary>
public static class OrderIds
{
    /// <summary>
    /// The distinct ids in the engines' order (canonical texts, ordinal), so both filters stream alike.
    /// </summary>
    public static Guid[] DistinctInTextOrder(IReadOnlyCollection<Guid> ids)
    {
        var sorted = ids.ToArray();
        Array.Sort(sorted, CompareAsText);
        return [.. sorted.Where((id, i) => i == 0 || id != sorted[i - 1])];
    }

    /// <summary>The ordinal order of the two ids' canonical texts.</summary>
    public static int CompareAsText(Guid left, Guid right)
    {
        Span<byte> leftBytes = stackalloc byte[16];
        Span<byte> rightBytes = stackalloc byte[16];
        left.TryWriteBytes(leftBytes, bigEndian: true, out _);
        right.TryWriteBytes(rightBytes, bigEndian: true, out _);
        return leftBytes.SequenceCompareTo(rightBytes);
    }
}
