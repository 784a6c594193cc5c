using System.Buffers;
using System.Globalization;
using OrderService.Contracts;
using OrderService.Data.Orders;

namespace OrderService.Validation;

/// <summary>The field rules of docs/api.md, written as plain loops.</summary>
public static class OrderRequestRules
{
    private static readonly SearchValues<char> CustomerIdCharacters =
        SearchValues.Create("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-");

    private static readonly string[] StatusNames = Enum.GetNames<OrderStatus>();

    public static void CustomerId(string? value, string field, ref ValidationErrors errors)
    {
        if (string.IsNullOrEmpty(value) || value.Length > RequestLimits.MaxCustomerIdLength || value.AsSpan()
            .ContainsAnyExcept(CustomerIdCharacters))
        {
            errors.Add(field, Messages.CustomerId);
        }
    }

    /// <summary>Checks every line and, when all are valid, returns them as domain lines.</summary>
    public static OrderLine[]? Lines(IReadOnlyList<CreateOrderLine?>? lines, ref ValidationErrors errors)
    {
        if (lines is null || lines.Count is 0 or > RequestLimits.MaxLines)
        {
            errors.Add("lines", Messages.Lines);
            return null;
        }

        var valid = new OrderLine[lines.Count];
        var allValid = true;
        for (var i = 0; i < lines.Count; i++)
        {
            if (lines[i] is not { } line)
            {
                errors.Add($"lines[{i}]", "A line is required.");
                allValid = false;
                continue;
            }

            if (!IsPrintable(line.Sku, RequestLimits.MaxSkuLength))
            {
                errors.Add($"lines[{i}].sku", Messages.Sku);
                allValid = false;
            }

            if (line.Quantity is not (>= RequestLimits.MinQuantity and <= RequestLimits.MaxQuantity))
            {
                errors.Add($"lines[{i}].quantity", Messages.Quantity);
                allValid = false;
            }

            if (line.UnitPrice is not { } price || price < 0 || price > RequestLimits.MaxUnitPrice
                || decimal.Round(price, RequestLimits.MaxUnitPriceDecimals) != price)
            {
                errors.Add($"lines[{i}].unitPrice", Messages.UnitPrice);
                allValid = false;
            }

            if (allValid)
            {
                valid[i] = new OrderLine(line.Sku!, line.Quantity!.Value, line.UnitPrice!.Value);
            }
        }

        return allValid ? valid : null;
    }

    /// <summary>Idempotency-Key: absent is fine; present, it is 1–128 printable ASCII characters.</summary>
    public static string? IdempotencyKey(string? header, ref ValidationErrors errors)
    {
        if (header is null)
        {
            return null;
        }

        if (header.Length is 0 or > RequestLimits.MaxIdempotencyKeyLength || header.AsSpan()
            .ContainsAnyExceptInRange(' ', '~'))
        {
            errors.Add("Idempotency-Key", Messages.IdempotencyKey);
            return null;
        }

        return header;
    }

    /// <summary>
    /// If-Match: absent or * means any version; otherwise exactly one strong ETag, "&lt;version&gt;".
    /// </summary>
    public static int? IfMatch(string? header, ref ValidationErrors errors)
    {
        if (header is null || header == "*")
        {
            return null;
        }

        var tag = header.AsSpan().Trim();
        if (tag.Length >= 3 && tag[0] == '"' && tag[^1] == '"'
            && int.TryParse(tag[1..^1], NumberStyles.None, CultureInfo.InvariantCulture, out var version)
                && version >= 1)
        {
            return version;
        }

        errors.Add("If-Match", "Must be one ETag as returned by the service, such as \"3\", or *.");
        return null;
    }

    public static void Pay(PayOrderRequest? request, ref ValidationErrors errors)
    {
        if (request?.PaymentReference is { Length: > RequestLimits.MaxPaymentReferenceLength })
        {
            errors.Add("paymentReference", Messages.PaymentReference);
        }
    }

    public static void Ship(ShipOrderRequest? request, ref ValidationErrors errors)
    {
        if (!IsPrintable(request?.Carrier, RequestLimits.MaxCarrierLength))
        {
            errors.Add("carrier", Messages.Carrier);
        }

        if (!IsPrintable(request?.TrackingNumber, RequestLimits.MaxTrackingNumberLength))
        {
            errors.Add("trackingNumber", Messages.TrackingNumber);
        }
    }

    public static void Cancel(CancelOrderRequest? request, ref ValidationErrors errors)
    {
        if (request?.Reason is { Length: > RequestLimits.MaxCancelReasonLength })
        {
            errors.Add("reason", Messages.Reason);
        }
    }

    /// <summary>1–10,000 ids, each returned once: repeats are dropped here so the store sees a set.</summary>
    public static IReadOnlyCollection<Guid>? BatchIds(OrderBatchRequest? request, ref ValidationErrors errors)
    {
        var ids = request?.Ids;
        if (ids is null || ids.Count is 0 or > RequestLimits.MaxBatchIds)
        {
            errors.Add("ids", Messages.BatchIds);
            return null;
        }

        if (ids.Count == 1)
        {
            return ids;
        }

        var distinct = new HashSet<Guid>(ids);
        return distinct.Count == ids.Count ? ids : distinct;
    }

    /// <summary>A status name, case-insensitive; numbers and flag combinations are not statuses.</summary>
    public static OrderStatus? StatusFilter(string? value, ref ValidationErrors errors)
    {
        if (string.IsNullOrEmpty(value))
        {
            return null;
        }

        for (var i = 0; i < StatusNames.Length; i++)
        {
            if (string.Equals(StatusNames[i], value, StringComparison.OrdinalIgnoreCase))
            {
                return (OrderStatus)i;
            }
        }

        errors.Add("status", Messages.Status);
        return null;
    }

    /// <summary>The listing's limit.</summary>
    public static int Limit(string? value, ref ValidationErrors errors)
    {
        if (string.IsNullOrEmpty(value))
        {
            return RequestLimits.DefaultListLimit;
        }

        if (!int.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out var limit))
        {
            errors.Add("limit", Problems.BadRequestProblems.NotAValidValue(value));
            return RequestLimits.DefaultListLimit;
        }

        if (limit is < RequestLimits.MinListLimit or > RequestLimits.MaxListLimit)
        {
            errors.Add("limit", Messages.Limit);
        }

        return limit;
    }

    /// <summary>The listing's cursor.</summary>
    public static OrderService.Data.OrderPosition? Cursor(string? value, ref ValidationErrors errors)
    {
        if (string.IsNullOrEmpty(value))
        {
            return null;
        }

        if (Apis.PageCursor.TryDecode(value, out var position))
        {
            return position;
        }

        errors.Add("cursor", "Must be a cursor from the Link header (rel=\"next\") of this listing, unchanged.");
        return null;
    }

    private static class Messages
    {
        public static readonly string CustomerId =
            Text($"Must be 1–{RequestLimits.MaxCustomerIdLength} characters of [A-Za-z0-9_-].");
        public static readonly string Lines = Text($"Must hold 1–{RequestLimits.MaxLines:N0} lines.");
        public static readonly string Sku = Printable(RequestLimits.MaxSkuLength);
        public static readonly string Quantity =
            Text($"Must be an integer from {RequestLimits.MinQuantity:N0} to {RequestLimits.MaxQuantity:N0}.");
        public static readonly string UnitPrice =
            Text($"Must be from 0 to {RequestLimits.MaxUnitPrice:N0} with at most {
                RequestLimits.MaxUnitPriceDecimals} decimals.");
        public static readonly string IdempotencyKey =
            Text($"Must be 1–{RequestLimits.MaxIdempotencyKeyLength} printable ASCII characters.");
        public static readonly string PaymentReference = AtMost(RequestLimits.MaxPaymentReferenceLength);
        public static readonly string Carrier = Printable(RequestLimits.MaxCarrierLength);
        public static readonly string TrackingNumber = Printable(RequestLimits.MaxTrackingNumberLength);
        public static readonly string Reason = AtMost(RequestLimits.MaxCancelReasonLength);
        public static readonly string BatchIds = Text($"Must hold 1–{RequestLimits.MaxBatchIds:N0} order ids.");
        public static readonly string Status = $"Must be one of {string.Join(", ", StatusNames)}.";
        public static readonly string Limit =
            Text($"Must be from {RequestLimits.MinListLimit:N0} to {RequestLimits.MaxListLimit:N0}.");

        private static string Printable(int maxLength) => Text($"Must be 1–{maxLength} printable characters.");

        private static string AtMost(int maxLength) => Text($"Must be at most {maxLength:N0} characters.");

        private static string Text(FormattableString message) => message.ToString(CultureInfo.InvariantCulture);
    }

    private static bool IsPrintable(string? value, int maxLength) =>
        !string.IsNullOrWhiteSpace(value)
        && value.Length <= maxLength
        && !value.AsSpan().ContainsAnyInRange('\u0000', '\u001F')
        && !value.AsSpan().ContainsAnyInRange('\u007F', '\u009F');
}
