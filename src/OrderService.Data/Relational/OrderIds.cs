namespace OrderService.Data.Relational;

/// <summary>Order ids as the batch read sends them: each once, in the order of their canonical text.</summary>
public static class OrderIds
{
    /// <summary>
    /// The distinct ids in the engines' order (canonical texts, ordinal), so both filters stream alike.
    /// </summary>
    public static Guid[] DistinctInTextOrder(IReadOnlyCollection<Guid> ids)
    {
        // Guid's own order compares its fields as unsigned numbers: the ordinal order of its canonical text.
        var sorted = ids.ToArray();
        Array.Sort(sorted);
        return [.. sorted.Where((id, i) => i == 0 || id != sorted[i - 1])];
    }
}
