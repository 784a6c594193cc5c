using System.Buffers;
using System.IO.Pipelines;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using Microsoft.Extensions.Options;
using OrderService.Data.Orders;
using OrderService.Contracts;
using OrderService.Validation;
using JsonOptions = Microsoft.AspNetCore.Http.Json.JsonOptions;

namespace OrderService.Apis;

/// <summary>Runs the request contract once while the host starts, so the first request finds its JSON code
/// built.</summary>
internal sealed partial class ContractWarmUp(IOptions<JsonOptions> json, ILogger<ContractWarmUp> logger)
    : BackgroundService
{
    private static ReadOnlySpan<byte> SampleRequest =>
        """{"customerId":"warm-up","lines":[{"sku":"SKU-1","quantity":1,"unitPrice":9.99}]}"""u8;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        try
        {
            await RunAsync(json.Value.SerializerOptions, stoppingToken);
        }
        catch (Exception fault) when (!stoppingToken.IsCancellationRequested)
        {
            // Only the first request's speed is at stake: it builds what is missing itself.
            LogFailed(logger, fault);
        }
    }

    /// <summary>The contract's round, with <paramref name="options"/>: those of the API, so that their metadata is the
    /// one built.</summary>
    internal static async Task RunAsync(JsonSerializerOptions options, CancellationToken cancellationToken)
    {
        var request = await JsonSerializer.DeserializeAsync(
            PipeReader.Create(new ReadOnlySequence<byte>(SampleRequest.ToArray())),
                TypeInfo<CreateOrderRequest>(options), cancellationToken);
        var errors = default(ValidationErrors);
        var lines = OrderRequestRules.Lines(request?.Lines ?? [], ref errors);
        if (errors.Any || lines is not { Length: > 0 } || request?.CustomerId is null)
        {
            // Else the round would stop short of the order, and warm only half the path.
            throw new InvalidOperationException("The warm-up's sample request does not pass the order rules.");
        }

        var now = DateTimeOffset.UtcNow;
        var order = Transitions.Create(Guid.CreateVersion7(now), request!.CustomerId!, lines, now);
        var sink = PipeWriter.Create(Stream.Null);
        await JsonSerializer.SerializeAsync(sink, order, TypeInfo<Order>(options), cancellationToken);
        var problem = new HttpValidationProblemDetails { Errors = { ["customerId"] = ["warm-up"] } };
        await JsonSerializer.SerializeAsync(sink, problem, TypeInfo<HttpValidationProblemDetails>(options),
            cancellationToken);
        await sink.CompleteAsync();
    }

    // The overloads that take the options alone are the ones a Native AOT build warns about.
    private static JsonTypeInfo<T> TypeInfo<T>(JsonSerializerOptions options) =>
        (JsonTypeInfo<T>)options.GetTypeInfo(typeof(T));

    [LoggerMessage(Level = LogLevel.Warning, Message =
        "Warming the request contract up failed; the first request does it instead.")]
    private static partial void LogFailed(ILogger logger, Exception exception);
}
