using System.ComponentModel.DataAnnotations;

namespace OrderService.Contracts;

// Request bodies, with docs/api.md's limits as attributes: AddValidation checks them and OpenAPI shows them.
// Every member is nullable so that a missing field reaches validation and is reported by name (lines[2].quantity).

/// <summary>POST /orders: who orders what.</summary>
public sealed record CreateOrderRequest(
    [property: Required, Length(1, 64), CustomerId] string? CustomerId,
    [property: Required, Length(1, 100)] IReadOnlyList<CreateOrderLine?>? Lines);

/// <summary>One line of a new order.</summary>
/// <param name="UnitPrice">From 0 to 1,000,000, with at most 2 decimals.</param>
public sealed record CreateOrderLine(
    [property: Required, Length(1, 64), Printable] string? Sku,
    [property: Required, Range(1, 1_000)] int? Quantity,
    [property: Required, Range(0d, 1_000_000d), WholeCents] decimal? UnitPrice);

/// <summary>POST /orders/{id}/pay (the body is optional).</summary>
public sealed record PayOrderRequest([property: MaxLength(128), Printable] string? PaymentReference = null);

/// <summary>POST /orders/{id}/ship.</summary>
public sealed record ShipOrderRequest(
    [property: Required, Length(1, 64), Printable] string? Carrier,
    [property: Required, Length(1, 64), Printable] string? TrackingNumber);

/// <summary>POST /orders/{id}/cancel (the body is optional).</summary>
public sealed record CancelOrderRequest([property: MaxLength(500), Printable] string? Reason = null);

/// <summary>POST /orders/batch: the orders to fetch.</summary>
/// <param name="Ids">1–1,000 order ids; a repeated id is returned once, a missing one is left out.</param>
public sealed record OrderBatchRequest(
    [property: Required, Length(1, RequestLimits.MaxBatchIds)] IReadOnlyList<Guid>? Ids);

/// <summary>The body of /health/live and /health/ready when the service is healthy.</summary>
public sealed record HealthResponse(string Status);

/// <summary>A customer id's characters; with [Length(1, 64)] it is docs/api.md's rule.</summary>
public sealed class CustomerIdAttribute() : RegularExpressionAttribute(RequestLimits.CustomerIdPattern)
{
    public override string FormatErrorMessage(string name) => "Must be 1–64 characters of [A-Za-z0-9_-].";
}

/// <summary>No control characters and no lone surrogates; with [Required] not blank either.</summary>
public sealed class PrintableAttribute() : RegularExpressionAttribute(RequestLimits.PrintablePattern)
{
    public override string FormatErrorMessage(string name) => "Must be printable characters.";
}

/// <summary>Money: at most two decimals.</summary>
[AttributeUsage(AttributeTargets.Property | AttributeTargets.Parameter)]
public sealed class WholeCentsAttribute() : ValidationAttribute("Must have at most 2 decimals.")
{
    public override bool IsValid(object? value) => value is not decimal amount || decimal.Round(amount, 2) == amount;
}
