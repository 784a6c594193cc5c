using System.Globalization;
using OrderService.Contracts;
using OrderService.Data.Orders;

namespace OrderService.Validation;

/// <summary>What attributes cannot say: headers, null lines, and the listing's query (body fields are
/// attributes on Contracts/Requests.cs, checked by AddValidation before the handler runs).</summary>
public static class OrderRequestRules
{
    private static readonly string[] StatusNames = Enum.GetNames<OrderStatus>();

    /// <summary>The lines as domain lines; a null line is an error (attributes check only the lines
    /// present).</summary>
    public static OrderLine[]? Lines(IReadOnlyList<CreateOrderLine?> lines, ref ValidationErrors errors)
    {
        var valid = new OrderLine[lines.Count];
        for (var i = 0; i < lines.Count; i++)
        {
            if (lines[i] is not { } line)
            {
                errors.Add($"lines[{i}]", "A line is required.");
                return null;
            }

            valid[i] = new OrderLine(line.Sku!, line.Quantity!.Value, line.UnitPrice!.Value);
        }

        return valid;
    }

    /// <summary>Idempotency-Key: absent is fine; present, it is 1–128 printable ASCII characters.</summary>
    public static string? IdempotencyKey(string? header, ref ValidationErrors errors)
    {
        if (header is null)
        {
            return null;
        }

        if (header.Length is 0 or > 128 || header.AsSpan().ContainsAnyExceptInRange(' ', '~'))
        {
            errors.Add("Idempotency-Key", "Must be 1–128 printable ASCII characters.");
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

        errors.Add("status", $"Must be one of {string.Join(", ", StatusNames)}.");
        return null;
    }

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
            errors.Add("limit", "Must be from 1 to 1,000.");
        }

        return limit;
    }
}
