namespace OrderService;

/// <summary>The limits that code reads; the body fields' limits are attributes on Contracts/Requests.cs.</summary>
public static class RequestLimits
{
    public const int MaxBodyBytes = 1024 * 1024;
    public const string CustomerIdPattern = "^[A-Za-z0-9_-]{1,64}$";

    /// <summary>No control characters (C0, DEL, C1), no lone surrogates; [Required] refuses blank strings.</summary>
    public const string PrintablePattern = @"^(?:[^\x00-\x1F\x7F-\x9F\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$";

    public const string IdempotencyKeyPattern = "^[ -~]{1,128}$";
    /// <summary>Where a batch still costs the store about what a page of the listing does (docs/api.md).</summary>
    public const int MaxBatchIds = 1_000;

    public const int MinListLimit = 1;
    public const int MaxListLimit = 1_000;
    public const int DefaultListLimit = 100;
}
