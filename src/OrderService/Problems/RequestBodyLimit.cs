using Microsoft.AspNetCore.Http.Features;
namespace OrderService.Problems;

/// <summary>The body cap as a 413 problem; a host without Kestrel's limit gets a counting stream.</summary>
public static class RequestBodyLimit
{
    public static IApplicationBuilder UseRequestBodyLimit(this IApplicationBuilder app) =>
        app.Use(static (context, next) =>
    {
        var request = context.Request;
        if (request.ContentLength > RequestLimits.MaxBodyBytes)
        {
            return ProblemSetup.WriteAsync(context, BadRequestProblems.TooLarge());
        }

        if (request.ContentLength is null && context.Features.Get<IHttpMaxRequestBodySizeFeature>() is null)
        {
            request.Body = new CappedStream(request.Body, context);
        }

        return next(context);
    });

    private sealed class CappedStream(Stream inner, HttpContext context) : Stream
    {
        private long _read;

        public override bool CanRead => true;

        public override bool CanSeek => false;

        public override bool CanWrite => false;

        public override long Length => throw new NotSupportedException();

        public override long Position
        {
            get => _read;
            set => throw new NotSupportedException();
        }

        public override int Read(byte[] buffer, int offset, int count) => Count(inner.Read(buffer, offset, count));

        public override async ValueTask<int> ReadAsync(Memory<byte> buffer, CancellationToken cancellationToken =
            default) =>
            Count(await inner.ReadAsync(buffer, cancellationToken));

        public override Task<int> ReadAsync(byte[] buffer, int offset, int count,
            CancellationToken cancellationToken) =>
            ReadAsync(buffer.AsMemory(offset, count), cancellationToken).AsTask();

        public override void Flush()
        {
        }

        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();

        public override void SetLength(long value) => throw new NotSupportedException();

        public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();

        private int Count(int read)
        {
            _read += read;
            if (_read > RequestLimits.MaxBodyBytes)
            {
                // Set the status too: whoever catches the exception, the status-code page still answers 413.
                context.Response.StatusCode = StatusCodes.Status413PayloadTooLarge;
                throw new BadHttpRequestException("Request body too large.", StatusCodes.Status413PayloadTooLarge);
            }

            return read;
        }
    }
}
