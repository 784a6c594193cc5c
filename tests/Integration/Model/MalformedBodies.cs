using System.Text;

namespace OrderService.Integration.Tests.Model;

/// <summary>Where a malformed body goes: the create, three transitions that read a body, and the batch read.</summary>
public enum BodyTarget
{
    Create,
    Pay,
    Ship,
    Cancel,
    Batch,
}

/// <summary>
/// One malformed request: a body (bytes, since some cases are not text) and a content type (null: no header).
/// The body is built for the customer and order of the run, so "nothing changed" is checkable.
/// </summary>
public sealed record MalformedCase(string Name, BodyTarget Target, string? ContentType, Func<string, Guid, byte[]> Body)
{
    public override string ToString() => Name;
}

/// <summary>
/// The malformed bodies of issue 11 §3: wrong types, huge numbers, deep nesting, invalid UTF-8, duplicate keys,
/// truncated JSON, wrong content types, and their neighbours, for every endpoint that reads a body (complete
/// takes none). Pay and cancel accept an absent body, so "no body" and a JSON null are valid for them and left out.
/// </summary>
public static class MalformedBodies
{
    private const string Json = "application/json";

    // The first string field of each valid body: the place the per-field malformations go.
    private static string Field(BodyTarget target) => target switch
    {
        BodyTarget.Create => "customerId",
        BodyTarget.Pay => "paymentReference",
        BodyTarget.Ship => "carrier",
        BodyTarget.Cancel => "reason",
        _ => "ids",
    };

    /// <summary>A valid body for the target: {field: VALUE, ...rest}, with VALUE the JSON of the field's value.</summary>
    private static string Valid(BodyTarget target, string customer, Guid id, string? value = null) => target switch
    {
        BodyTarget.Create => $$"""{"customerId":{{value ?? Quote(customer)}},"lines":[{"sku":"SKU-1","quantity":1,"unitPrice":1.5}]}""",
        BodyTarget.Pay => $$"""{"paymentReference":{{value ?? "\"P-9\""}}}""",
        BodyTarget.Ship => $$"""{"carrier":{{value ?? "\"DHL\""}},"trackingNumber":"T-9"}""",
        BodyTarget.Cancel => $$"""{"reason":{{value ?? "\"R-9\""}}}""",
        _ => $$"""{"ids":{{value ?? $"[\"{id}\"]"}}}""",
    };

    private static string Quote(string text) => $"\"{text}\"";

    private static byte[] Utf8(string text) => Encoding.UTF8.GetBytes(text);

    /// <summary>The valid body with the field's string value carrying raw bytes that are not UTF-8.</summary>
    private static byte[] WithRawBytes(BodyTarget target, string customer, Guid id, byte[] raw)
    {
        const string marker = "\"@@RAW@@\"";
        var text = Valid(target, customer, id, target == BodyTarget.Batch ? $"[{marker}]" : marker);
        var at = text.IndexOf(marker, StringComparison.Ordinal);
        return [.. Utf8(text[..(at + 1)]), .. raw, .. Utf8(text[(at + marker.Length - 1)..])];
    }

    private static string Nested(int depth, string open, string close, string inner) =>
        string.Concat(string.Concat(Enumerable.Repeat(open, depth)), inner, string.Concat(Enumerable.Repeat(close, depth)));

    public static readonly IReadOnlyList<MalformedCase> All = Build().ToList();

    private static readonly Dictionary<string, MalformedCase> ByName = All.ToDictionary(c => c.Name, StringComparer.Ordinal);

    /// <summary>The case names as theory data: each case is its own visible test.</summary>
    public static Xunit.TheoryData<string> Cases => new(All.Select(c => c.Name));

    public static MalformedCase Named(string name) => ByName[name];

    private static IEnumerable<MalformedCase> Build()
    {
        foreach (var target in Enum.GetValues<BodyTarget>())
        {
            var t = target.ToString().ToLowerInvariant();
            var field = Field(target);
            MalformedCase Case(string what, Func<string, Guid, string> body, string? contentType = Json) =>
                new($"{t}: {what}", target, contentType, (c, id) => Utf8(body(c, id)));
            MalformedCase Raw(string what, byte[] raw) => new($"{t}: {what}", target, Json, (c, id) => WithRawBytes(target, c, id, raw));

            // Wrong types.
            yield return Case($"{field} is a number", (c, id) => Valid(target, c, id, target == BodyTarget.Batch ? "[12345]" : "12345"));
            yield return Case($"{field} is an object", (c, id) => Valid(target, c, id, "{\"a\":1}"));
            yield return Case($"{field} is true", (c, id) => Valid(target, c, id, "true"));
            yield return Case("the body is an array", (c, id) => $"[{Valid(target, c, id)}]");
            yield return Case("the body is a string", (c, id) => "\"hello\"");

            // Huge numbers: where a number belongs, and where a string does.
            yield return Case($"{field} is 1e400", (c, id) => Valid(target, c, id, target == BodyTarget.Batch ? "[1e400]" : "1e400"));
            yield return Case($"{field} is a 100,000-digit number", (c, id) => Valid(target, c, id, new string('9', 100_000)));

            // Deep nesting: 10,000 levels, as the whole body and inside the field.
            yield return Case("10,000 nested arrays", (c, id) => Nested(10_000, "[", "]", ""));
            yield return Case($"10,000 nested objects in {field}", (c, id) => Valid(target, c, id, Nested(10_000, "{\"a\":", "}", "1")));

            // Not UTF-8, and not Unicode.
            yield return Raw($"{field} holds the bytes FF FE", [0xFF, 0xFE]);
            yield return Raw($"{field} holds a truncated 2-byte sequence (C3 28)", [0x43, 0xC3, 0x28]);
            yield return Raw($"{field} holds an overlong encoding of / (C0 AF)", [0xC0, 0xAF]);
            yield return Raw($"{field} holds an encoded surrogate (ED A0 80)", [0xED, 0xA0, 0x80]);
            yield return Case($"{field} holds a lone surrogate escape", (c, id) => Valid(target, c, id, target == BodyTarget.Batch ? "[\"\\uD800\"]" : "\"A\\uD800\""));

            // Duplicate keys: exact, and differing only in case (binding is case-insensitive).
            yield return Case($"{field} twice", (c, id) => $"{{\"{field}\":{DuplicateValue(target, c)},{Valid(target, c, id)[1..]}");
            yield return Case($"{field} twice, the second capitalized", (c, id) => $"{{\"{char.ToUpperInvariant(field[0])}{field[1..]}\":{DuplicateValue(target, c)},{Valid(target, c, id)[1..]}");

            // Broken JSON.
            yield return Case("truncated in the middle", (c, id) => Valid(target, c, id)[..(Valid(target, c, id).Length / 2)]);
            yield return Case("truncated before the last brace", (c, id) => Valid(target, c, id)[..^1]);
            yield return Case("a second document after the first", (c, id) => Valid(target, c, id) + "{}");
            yield return Case("a trailing comma", (c, id) => Valid(target, c, id)[..^1] + ",}");
            yield return Case("a comment", (c, id) => "/* hi */" + Valid(target, c, id));
            yield return Case($"{field} is NaN", (c, id) => Valid(target, c, id, "NaN"));
            yield return Case("single quotes", (c, id) => Valid(target, c, id).Replace('"', '\''));

            // Wrong content types, with a valid JSON body.
            yield return Case("as text/plain", (c, id) => Valid(target, c, id), "text/plain");
            yield return Case("as application/xml", (c, id) => Valid(target, c, id), "application/xml");
            yield return Case("as application/x-www-form-urlencoded", (c, id) => $"{field}=x", "application/x-www-form-urlencoded");
            yield return Case("as application/json with charset=utf-16", (c, id) => Valid(target, c, id), "application/json; charset=utf-16");
            yield return Case("with no content type", (c, id) => Valid(target, c, id), null);

            if (target is BodyTarget.Create or BodyTarget.Ship or BodyTarget.Batch)
            {
                yield return Case("an empty body", (c, id) => "");
                yield return Case("the JSON null", (c, id) => "null");
            }

            if (target == BodyTarget.Create)
            {
                yield return Case("quantity is 1e400", (c, id) => $$"""{"customerId":"{{c}}","lines":[{"sku":"S","quantity":1e400,"unitPrice":1}]}""");
                yield return Case("quantity is 30 digits", (c, id) => $$"""{"customerId":"{{c}}","lines":[{"sku":"S","quantity":{{new string('7', 30)}},"unitPrice":1}]}""");
                yield return Case("quantity is 1.5", (c, id) => $$"""{"customerId":"{{c}}","lines":[{"sku":"S","quantity":1.5,"unitPrice":1}]}""");
                yield return Case("quantity is \"3\"", (c, id) => $$"""{"customerId":"{{c}}","lines":[{"sku":"S","quantity":"3","unitPrice":1}]}""");
                yield return Case("unitPrice is 1e400", (c, id) => $$"""{"customerId":"{{c}}","lines":[{"sku":"S","quantity":1,"unitPrice":1e400}]}""");
                // A non-zero price too small for decimal: it used to round to 0.00 and be accepted.
                yield return Case("unitPrice is 1e-400", (c, id) => $$"""{"customerId":"{{c}}","lines":[{"sku":"S","quantity":1,"unitPrice":1e-400}]}""");
                yield return Case("unitPrice has 40 digits", (c, id) => $$"""{"customerId":"{{c}}","lines":[{"sku":"S","quantity":1,"unitPrice":{{new string('1', 40)}}.5}]}""");
                yield return Case("lines is an object", (c, id) => $$$"""{"customerId":"{{{c}}}","lines":{"sku":"S","quantity":1,"unitPrice":1}}""");
                yield return Case("a line twice keyed quantity", (c, id) => $$"""{"customerId":"{{c}}","lines":[{"sku":"S","quantity":1,"quantity":2,"unitPrice":1}]}""");
            }
        }
    }

    /// <summary>The first of two values for one key: valid on its own, so a service that keeps either value would act.</summary>
    private static string DuplicateValue(BodyTarget target, string customer) => target switch
    {
        BodyTarget.Create => Quote(customer + "x"),
        BodyTarget.Batch => "[]",
        _ => "\"other\"",
    };
}
