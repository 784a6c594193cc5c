namespace OrderService.Data.Relational;

/// <summary>Order ids as the batch read sends them: each once, in the order of their canonical text.</summary>
public static class OrderIds
{
    /// <summary>
    /// The distinct ids in the engines' order (canonical texts, ordinal), so both filters stream alike.
    /// </summary>
    public static Guid[] DistinctInTextOrder(IReadOnlyCollection<Guid> ids)
    {
        var sorted = new Guid[ids.Count];
        var count = 0;
        foreach (var id in ids)
        {
            sorted[count++] = id;
        }

        Array.Sort(sorted, CompareAsText);
        var distinct = 0;
        for (var i = 0; i < sorted.Length; i++)
        {
            if (distinct == 0 || sorted[i] != sorted[distinct - 1])
            {
                sorted[distinct++] = sorted[i];
            }
        }

        return distinct == sorted.Length ? sorted : sorted[..distinct];
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
