namespace OrderService.Load.Driver;

/// <summary>
/// What one step (or one whole iteration) produced. <see cref="StatusCode"/> is the protocol's code
/// when there is one (HTTP status); <see cref="Exception"/> is set when the step threw instead.
/// </summary>
public readonly record struct Response(bool IsOk, int StatusCode, string? Exception, string? Message)
{
    public static Response Ok(int statusCode = 0) => new(true, statusCode, null, null);

    public static Response Fail(int statusCode, string? message = null) => new(false, statusCode, null, message);

    public static Response Fail(Exception exception) => new(false, 0, exception.GetType().Name,
        exception.InnerException is { } inner ? $"{exception.Message} <- {inner.GetType().Name}: {inner.Message}" : exception.Message);

    public bool IsError => !IsOk;

    /// <summary>How errors are grouped in the report: by status code, or by exception type when there is no status.</summary>
    public string ErrorKey => Exception ?? StatusCode.ToString(System.Globalization.CultureInfo.InvariantCulture);
}
