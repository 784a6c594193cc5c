using System.Text.Json.Nodes;
using Xunit;

namespace OrderService.Integration.Tests.Conformance;

/// <summary>
/// Every rule of the limits table in docs/api.md as a named bad request, plus the field the
/// answer's <c>errors</c> map must name. Theory data carries only the case name, so each case is a
/// visible test; the body is built here from a valid one with one thing broken.
/// </summary>
public static class ValidationCases
{
    private static readonly string TooLong65 = new('a', 65);

    /// <summary>Bad POST /orders bodies: name -> (mutation of a valid body, field the errors must name).</summary>
    public static readonly IReadOnlyDictionary<string, (Action<JsonObject> Break, string Field)> Create =
        new Dictionary<string, (Action<JsonObject>, string)>(StringComparer.Ordinal)
        {
            ["customerId empty"] = (b => b["customerId"] = "", "customerId"),
            ["customerId 65 characters"] = (b => b["customerId"] = TooLong65, "customerId"),
            ["customerId with a space"] = (b => b["customerId"] = "a b", "customerId"),
            ["customerId with a slash"] = (b => b["customerId"] = "a/b", "customerId"),
            ["customerId with a dot"] = (b => b["customerId"] = "a.b", "customerId"),
            ["customerId non-ASCII"] = (b => b["customerId"] = "kund\u00e9", "customerId"),
            ["customerId missing"] = (b => b.Remove("customerId"), "customerId"),
            ["customerId null"] = (b => b["customerId"] = null, "customerId"),
            ["customerId a number"] = (b => b["customerId"] = 42, "customerId"),
            ["lines empty"] = (b => b["lines"] = new JsonArray(), "lines"),
            ["lines missing"] = (b => b.Remove("lines"), "lines"),
            ["lines null"] = (b => b["lines"] = null, "lines"),
            ["lines an object"] = (b => b["lines"] = new JsonObject(), "lines"),
            ["lines 101"] = (b => b["lines"] = new JsonArray(Enumerable.Range(0, 101).Select(i => (JsonNode?)Line($"S{i}", 1, 1m)).ToArray()), "lines"),
            ["line null"] = (b => b["lines"] = new JsonArray((JsonNode?)null), "lines"),
            ["sku empty"] = (b => FirstLine(b)["sku"] = "", "sku"),
            ["sku 65 characters"] = (b => FirstLine(b)["sku"] = TooLong65, "sku"),
            ["sku with a control character"] = (b => FirstLine(b)["sku"] = "AB\u0001C", "sku"),
            ["sku with a newline"] = (b => FirstLine(b)["sku"] = "AB\nC", "sku"),
            ["sku missing"] = (b => FirstLine(b).Remove("sku"), "sku"),
            ["sku a number"] = (b => FirstLine(b)["sku"] = 5, "sku"),
            ["quantity 0"] = (b => FirstLine(b)["quantity"] = 0, "quantity"),
            ["quantity negative"] = (b => FirstLine(b)["quantity"] = -1, "quantity"),
            ["quantity 1001"] = (b => FirstLine(b)["quantity"] = 1001, "quantity"),
            ["quantity fractional"] = (b => FirstLine(b)["quantity"] = 1.5m, "quantity"),
            ["quantity beyond Int32"] = (b => FirstLine(b)["quantity"] = 1e20m, "quantity"),
            ["quantity a string"] = (b => FirstLine(b)["quantity"] = "2", "quantity"),
            ["quantity missing"] = (b => FirstLine(b).Remove("quantity"), "quantity"),
            ["unitPrice negative"] = (b => FirstLine(b)["unitPrice"] = -0.01m, "unitPrice"),
            ["unitPrice above 1000000"] = (b => FirstLine(b)["unitPrice"] = 1_000_000.01m, "unitPrice"),
            ["unitPrice 3 decimals"] = (b => FirstLine(b)["unitPrice"] = 1.005m, "unitPrice"),
            ["unitPrice 1e30"] = (b => FirstLine(b)["unitPrice"] = JsonNode.Parse("1e30"), "unitPrice"),
            ["unitPrice a string"] = (b => FirstLine(b)["unitPrice"] = "1.00", "unitPrice"),
            ["unitPrice missing"] = (b => FirstLine(b).Remove("unitPrice"), "unitPrice"),
        };

    /// <summary>Bodies that are not JSON objects at all: a 400 ProblemDetails, no field required.</summary>
    public static readonly IReadOnlyDictionary<string, string> Malformed = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        ["truncated JSON"] = "{\"customerId\":\"c1\",\"lines\":[",
        ["not JSON"] = "customerId=c1",
        ["a JSON array"] = "[]",
        ["JSON null"] = "null",
        ["empty body"] = "",
        ["trailing garbage"] = "{\"customerId\":\"c1\",\"lines\":[{\"sku\":\"A\",\"quantity\":1,\"unitPrice\":1}]} x",
    };

    /// <summary>Bad Idempotency-Key headers (1-128 printable ASCII).</summary>
    public static readonly IReadOnlyDictionary<string, string> IdempotencyKeys = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        ["129 characters"] = new string('k', 129),
        ["empty"] = "",
        ["non-ASCII"] = "cl\u00e9",
        ["a control character"] = "key\u007f1",
        ["NUL"] = "key\u00001",
        ["ESC"] = "key\u001b1",
        ["a lone surrogate"] = "key\ud8001",
    };

    /// <summary>What no text field may hold, as JSON escapes: a client can send each one.</summary>
    public static readonly IReadOnlyDictionary<string, string> Unprintable =
        new Dictionary<string, string>(StringComparer.Ordinal)
        {
            ["NUL"] = @"\u0000",
            ["ESC"] = @"\u001b",
            ["a lone surrogate"] = @"\ud800",
        };

    /// <summary>Every text field of every body: field -> (create or the step, a valid body with TEXT where the field's
    /// value goes).</summary>
    public static readonly IReadOnlyDictionary<string, (string Action, string Body)> TextFields =
        new Dictionary<string, (string, string)>(StringComparer.Ordinal)
        {
            ["customerId"] = ("create", """{"customerId":"TEXT","lines":[{"sku":"S","quantity":1,"unitPrice":1}]}"""),
            ["sku"] = ("create", """{"customerId":"CUSTOMER","lines":[{"sku":"TEXT","quantity":1,"unitPrice":1}]}"""),
            ["paymentReference"] = ("pay", """{"paymentReference":"TEXT"}"""),
            ["carrier"] = ("ship", """{"carrier":"TEXT","trackingNumber":"T"}"""),
            ["trackingNumber"] = ("ship", """{"carrier":"C","trackingNumber":"TEXT"}"""),
            ["reason"] = ("cancel", """{"reason":"TEXT"}"""),
        };

    /// <summary>Bad transition requests: name -> (action, body JSON, field).</summary>
    public static readonly IReadOnlyDictionary<string, (string Action, string Body, string Field)> Transition =
        new Dictionary<string, (string, string, string)>(StringComparer.Ordinal)
        {
            ["pay paymentReference 129 characters"] = ("pay", $"{{\"paymentReference\":\"{new string('p', 129)}\"}}", "paymentReference"),
            ["pay paymentReference a number"] = ("pay", "{\"paymentReference\":12}", "paymentReference"),
            ["ship carrier empty"] = ("ship", "{\"carrier\":\"\",\"trackingNumber\":\"T\"}", "carrier"),
            ["ship carrier 65 characters"] = ("ship", $"{{\"carrier\":\"{TooLong65}\",\"trackingNumber\":\"T\"}}", "carrier"),
            ["ship carrier missing"] = ("ship", "{\"trackingNumber\":\"T\"}", "carrier"),
            ["ship trackingNumber empty"] = ("ship", "{\"carrier\":\"C\",\"trackingNumber\":\"\"}", "trackingNumber"),
            ["ship trackingNumber 65 characters"] = ("ship", $"{{\"carrier\":\"C\",\"trackingNumber\":\"{TooLong65}\"}}", "trackingNumber"),
            ["ship trackingNumber missing"] = ("ship", "{\"carrier\":\"C\"}", "trackingNumber"),
            ["ship trackingNumber a number"] = ("ship", "{\"carrier\":\"C\",\"trackingNumber\":7}", "trackingNumber"),
            ["cancel reason 501 characters"] = ("cancel", $"{{\"reason\":\"{new string('r', 501)}\"}}", "reason"),
        };

    /// <summary>Bad POST /orders/batch bodies: name -> (body JSON, field).</summary>
    public static readonly IReadOnlyDictionary<string, (Func<string> Body, string Field)> Batch =
        new Dictionary<string, (Func<string>, string)>(StringComparer.Ordinal)
        {
            ["ids empty"] = (() => "{\"ids\":[]}", "ids"),
            ["ids missing"] = (() => "{}", "ids"),
            ["ids null"] = (() => "{\"ids\":null}", "ids"),
            ["ids a string"] = (() => "{\"ids\":\"x\"}", "ids"),
            ["an id that is not a UUID"] = (() => $"{{\"ids\":[\"{Guid.NewGuid()}\",\"not-a-uuid\"]}}", "ids"),
            ["an id that is a number"] = (() => "{\"ids\":[42]}", "ids"),
            ["1001 ids"] = (() => new JsonObject
            {
                ["ids"] = new JsonArray(Enumerable.Range(0, RequestLimits.MaxBatchIds + 1)
                    .Select(_ => (JsonNode?)Guid.NewGuid().ToString()).ToArray()),
            }.ToJsonString(), "ids"),
        };

    /// <summary>Bad customer listings: name -> (path and query, field).</summary>
    public static readonly IReadOnlyDictionary<string, (Func<string, string> Path, string Field)> Listing =
        new Dictionary<string, (Func<string, string>, string)>(StringComparer.Ordinal)
        {
            ["limit 0"] = (c => $"/customers/{c}/orders?limit=0", "limit"),
            ["limit 1001"] = (c => $"/customers/{c}/orders?limit=1001", "limit"),
            ["limit negative"] = (c => $"/customers/{c}/orders?limit=-1", "limit"),
            ["limit not a number"] = (c => $"/customers/{c}/orders?limit=ten", "limit"),
            ["status unknown"] = (c => $"/customers/{c}/orders?status=Lost", "status"),
            ["customerId 65 characters"] = (_ => $"/customers/{TooLong65}/orders", "customerId"),
            ["customerId with a space"] = (_ => "/customers/a%20b/orders", "customerId"),
            ["customerId with a dot"] = (_ => "/customers/a.b/orders", "customerId"),
            ["cursor not base64url"] = (c => $"/customers/{c}/orders?cursor=not+a+cursor!", "cursor"),
            ["cursor too short"] = (c => $"/customers/{c}/orders?cursor=AQ", "cursor"),
            ["cursor of an unknown format version"] = (c => $"/customers/{c}/orders?cursor={Cursor(version: 2, ticks: 638_000_000_000_000_000)}", "cursor"),
            ["cursor with a time past the calendar"] = (c => $"/customers/{c}/orders?cursor={Cursor(version: 1, ticks: long.MaxValue - 7)}", "cursor"),
            ["cursor with padding"] = (c => $"/customers/{c}/orders?cursor={Cursor(version: 1, ticks: 638_000_000_000_000_000)}%3D%3D", "cursor"),
        };

    /// <summary>A cursor-shaped token (base64url of version, big-endian ticks, 16 id bytes) with the given parts.</summary>
    private static string Cursor(byte version, long ticks)
    {
        var bytes = new byte[25];
        bytes[0] = version;
        System.Buffers.Binary.BinaryPrimitives.WriteInt64BigEndian(bytes.AsSpan(1), ticks);
        Guid.CreateVersion7().TryWriteBytes(bytes.AsSpan(9), bigEndian: true, out _);
        return System.Buffers.Text.Base64Url.EncodeToString(bytes);
    }

    public static TheoryData<string> CreateCases => new(Create.Keys);

    public static TheoryData<string> MalformedCases => new(Malformed.Keys);

    public static TheoryData<string> KeyCases => new(IdempotencyKeys.Keys);

    public static TheoryData<string> TransitionCases => new(Transition.Keys);

    public static TheoryData<string, string> TextCases =>
        new(from name in TextFields.Keys from character in Unprintable.Keys select (name, character));

    public static TheoryData<string> BatchCases => new(Batch.Keys);

    public static TheoryData<string> ListingCases => new(Listing.Keys);

    public static JsonObject ValidBody(string customerId) => new()
    {
        ["customerId"] = customerId,
        ["lines"] = new JsonArray(Line("SKU-1", 2, 19.99m), Line("SKU-2", 1, 5m)),
    };

    public static JsonObject Line(string sku, int quantity, decimal unitPrice) =>
        new() { ["sku"] = sku, ["quantity"] = quantity, ["unitPrice"] = unitPrice };

    private static JsonObject FirstLine(JsonObject body) => body["lines"]![0]!.AsObject();
}
