using System.Globalization;

namespace OrderService.CostLadder;

/// <summary>The ladder's request contract (rungs b to f): docs/api.md's field limits, as a map of field path to messages (empty: valid).</summary>
internal static class RequestRules
{
    public static Dictionary<string, string[]> Check(CreateOrder body)
    {
        var errors = new Dictionary<string, string[]>();
        if (body.CustomerId is not { Length: >= 1 and <= 64 } customer || !customer.All(c => char.IsAsciiLetterOrDigit(c) || c is '_' or '-'))
        {
            errors["customerId"] = ["1-64 characters of [A-Za-z0-9_-]."];
        }

        if (body.Lines is not { Count: >= 1 and <= 100 } lines)
        {
            errors["lines"] = ["1-100 lines."];
            return errors;
        }

        for (var i = 0; i < lines.Count; i++)
        {
            var line = lines[i];
            if (line.Sku is not { Length: >= 1 and <= 64 } sku || sku.Any(char.IsControl))
            {
                errors[Field(i, "sku")] = ["1-64 printable characters."];
            }

            if (line.Quantity is < 1 or > 1000)
            {
                errors[Field(i, "quantity")] = ["An integer from 1 to 1,000."];
            }

            if (line.UnitPrice is < 0 or > 1_000_000 || line.UnitPrice.Scale > 2 && decimal.Round(line.UnitPrice, 2) != line.UnitPrice)
            {
                errors[Field(i, "unitPrice")] = ["0-1,000,000 with at most 2 decimals."];
            }
        }

        return errors;
    }

    public static Dictionary<string, string[]> Check(Payment body) =>
        body.PaymentReference is { Length: > 128 } ? new() { ["paymentReference"] = ["Up to 128 characters."] } : [];

    public static Dictionary<string, string[]> Check(Shipment body)
    {
        var errors = new Dictionary<string, string[]>();
        if (body.Carrier is not { Length: >= 1 and <= 64 })
        {
            errors["carrier"] = ["1-64 characters."];
        }

        if (body.TrackingNumber is not { Length: >= 1 and <= 64 })
        {
            errors["trackingNumber"] = ["1-64 characters."];
        }

        return errors;
    }

    /// <summary>If-Match as a version: absent is null (no check); anything but a quoted positive integer is an error.</summary>
    public static bool TryReadVersion(string? ifMatch, out int? version, out Dictionary<string, string[]> errors)
    {
        version = null;
        errors = [];
        if (ifMatch is null)
        {
            return true;
        }

        if (ifMatch is ['"', .. var digits, '"'] && int.TryParse(digits, NumberStyles.None, CultureInfo.InvariantCulture, out var parsed) && parsed >= 1)
        {
            version = parsed;
            return true;
        }

        errors["If-Match"] = ["A quoted version, e.g. \"3\"."];
        return false;
    }

    private static string Field(int line, string name) => string.Create(CultureInfo.InvariantCulture, $"lines[{line}].{name}");
}
