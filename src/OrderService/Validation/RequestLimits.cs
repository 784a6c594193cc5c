namespace OrderService;

/// <summary>Every limit of docs/api.md in one place: validation, Kestrel and the problems read them here.</summary>
public static class RequestLimits
{
    public const int MaxBodyBytes = 1024 * 1024;
    public const int MaxCustomerIdLength = 64;
    public const int MaxSkuLength = 64;
    public const int MinQuantity = 1;
    public const int MaxQuantity = 1_000;
    public const decimal MaxUnitPrice = 1_000_000m;
    public const int MaxUnitPriceDecimals = 2;
    public const int MaxLines = 100;
    public const int MaxPaymentReferenceLength = 128;
    public const int MaxCarrierLength = 64;
    public const int MaxTrackingNumberLength = 64;
    public const int MaxCancelReasonLength = 500;
    public const int MaxIdempotencyKeyLength = 128;
    public const int MaxBatchIds = 10_000;
    public const int MinListLimit = 1;
    public const int MaxListLimit = 1_000;
    public const int DefaultListLimit = 100;
}
