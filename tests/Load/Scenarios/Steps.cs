using System.Globalization;
using NBomber.Contracts;
using NBomber.CSharp;
using OrderService.Testing;

namespace OrderService.Load.Scenarios;

/// <summary>
/// NBomber responses as the shoot-out reports them: the HTTP status (or the store's outcome as one) as the status
/// code, and an exception's type name in its place when there was no reply, so NBomber groups failures by either.
/// A reply's size is the bytes of its body, so NBomber's data columns count what the service sent.
/// </summary>
public static class Steps
{
    public static Response<object> Ok(int statusCode = 0, long sizeBytes = 0) =>
        Response.Ok(statusCode: statusCode == 0 ? "" : Code(statusCode), sizeBytes: sizeBytes);

    public static Response<object> Fail(int statusCode, string? message = null, long sizeBytes = 0) =>
        Response.Fail(statusCode: Code(statusCode), message: message ?? "", sizeBytes: sizeBytes);

    /// <summary>A reply as a step's response: ok for a 2xx, with its status code and size.</summary>
    public static Response<object> AsStep(this ApiReply reply) => reply.IsSuccess
        ? Ok(reply.StatusCode, reply.SizeBytes)
        : Fail(reply.StatusCode, reply.Problem, reply.SizeBytes);

    public static Response<object> Fail(Exception exception) =>
        Response.Fail(statusCode: exception.GetType().Name, message: exception.InnerException is { } inner
            ? $"{exception.Message} <- {inner.GetType().Name}: {inner.Message}"
            : exception.Message);

    /// <summary>
    /// <see cref="Step.Run"/> with the exception kept as the failure's status code: NBomber would record any exception
    /// as one code (-101) and log it per call, which at 100 copies against a dead service floods its log.
    /// </summary>
    public static Task<Response<object>> RunAsync(string name, IScenarioContext context, Func<Task<Response<object>>> step, CancellationToken cancellationToken) =>
        Step.Run(name, context, async () =>
        {
            try
            {
                return await step().ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                return Fail(new OperationCanceledException("The run was cancelled."));
            }
            catch (Exception exception)
            {
                return Fail(exception);
            }
        });

    private static string Code(int statusCode) => statusCode.ToString(CultureInfo.InvariantCulture);
}
