using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;

namespace OrderService.Testing;

/// <summary>Reads and checks of answers, naming the request when one is not what the caller expected.</summary>
public sealed partial class OrderApi
{
    public static async Task<OrderDto> ReadOrderAsync(HttpResponseMessage response, HttpStatusCode expected)
    {
        await ShouldHaveStatusAsync(response, expected);
        ShouldHaveMediaType(response, "application/json");
        return await response.Content.ReadFromJsonAsync<OrderDto>(Json)
            ?? throw new UnexpectedAnswerException("the order's body is null");
    }

    public static async Task<List<OrderDto>> ReadListAsync(HttpResponseMessage response)
    {
        await ShouldHaveStatusAsync(response, HttpStatusCode.OK);
        ShouldHaveMediaType(response, "application/json");
        return await response.Content.ReadFromJsonAsync<List<OrderDto>>(Json)
            ?? throw new UnexpectedAnswerException("the list's body is null");
    }

    /// <summary>Checks an RFC 7807 answer with the given status and returns its JSON.</summary>
    public static async Task<JsonObject> ReadProblemAsync(HttpResponseMessage response, HttpStatusCode expected)
    {
        await ShouldHaveStatusAsync(response, expected);
        ShouldHaveMediaType(response, "application/problem+json", $"a {(int)expected} must be ProblemDetails");
        var text = await response.Content.ReadAsStringAsync();
        if (JsonNode.Parse(text) is not JsonObject problem)
        {
            throw new UnexpectedAnswerException($"the problem body must be a JSON object: {text}");
        }

        var status = problem["status"]?.GetValue<int>();
        return status == (int)expected
            ? problem
            : throw new UnexpectedAnswerException(
                $"a problem names its status {(int)expected}; it named {status}: {text}");
    }

    /// <summary>
    /// A 400 whose <c>errors</c> map names <paramref name="field"/> (a key containing it, case-insensitively).
    /// </summary>
    public static async Task<JsonObject> ReadValidationProblemAsync(HttpResponseMessage response, string field)
    {
        var problem = await ReadProblemAsync(response, HttpStatusCode.BadRequest);
        if (problem["errors"] is not JsonObject errors)
        {
            throw new UnexpectedAnswerException(
                $"a validation problem must carry field errors; got {problem.ToJsonString()}");
        }

        return errors.Any(e => e.Key.Contains(field, StringComparison.OrdinalIgnoreCase))
            ? problem
            : throw new UnexpectedAnswerException($"the errors must name '{field}'; got {errors.ToJsonString()}");
    }

    public static void ShouldHaveMediaType(HttpResponseMessage response, string mediaType, string? because = null)
    {
        var actual = response.Content.Headers.ContentType?.MediaType;
        if (actual != mediaType)
        {
            throw new UnexpectedAnswerException(
                $"Content-Type should be {mediaType} but was {actual ?? "none"}: {because}");
        }
    }

    public static async Task ShouldHaveStatusAsync(HttpResponseMessage response, HttpStatusCode expected)
    {
        if (response.StatusCode != expected)
        {
            var body = response.Content is null ? "" : await response.Content.ReadAsStringAsync();
            var request = response.RequestMessage;
            throw new UnexpectedAnswerException(
                $"{request?.Method} {request?.RequestUri?.PathAndQuery} should answer {(int)expected} {expected} " +
                $"but answered {(int)response.StatusCode} {response.StatusCode}: " +
                body[..Math.Min(body.Length, 2000)]);
        }
    }
}

/// <summary>An answer that breaks the contract the caller expected of it.</summary>
public sealed class UnexpectedAnswerException(string message) : Exception(message);

public sealed record OrderLineDto(string Sku, int Quantity, decimal UnitPrice);

public sealed record OrderEventDataDto(
    string? PaymentReference, string? Carrier, string? TrackingNumber, string? Reason, decimal? Total);

public sealed record OrderEventDto(int Sequence, string Type, DateTimeOffset At, OrderEventDataDto? Data);

public sealed record OrderDto(
    Guid Id,
    string CustomerId,
    string Status,
    List<OrderLineDto> Lines,
    decimal Total,
    int Version,
    DateTimeOffset CreatedAt,
    DateTimeOffset UpdatedAt,
    List<OrderEventDto> Events);
