using System.Text;
using HdrHistogram;

namespace OrderService.Load.Driver;

/// <summary>
/// A run's histograms in HdrHistogram's standard log format (version 1.3: a header, then one tagged line per
/// histogram, its counts compressed and base64-encoded), so HdrHistogram's own tools in any language
/// (HistogramLogProcessor, hdr-plot, the Python and Go readers) can read and merge them.
/// </summary>
public static class HistogramLog
{
    /// <summary>
    /// Writes <paramref name="histograms"/> (each with its Tag, StartTimeStamp and EndTimeStamp set) to <paramref name="path"/>.
    /// HdrHistogram.NET 2.5.0's writer emits UTF-16 with a byte-order mark, which the other readers cannot parse,
    /// so its text is re-encoded here as plain ASCII (the format's characters are all ASCII).
    /// </summary>
    public static async Task WriteAsync(string path, DateTimeOffset startTime, IEnumerable<HistogramBase> histograms, CancellationToken cancellationToken = default)
    {
        using var utf16 = new MemoryStream();
        using (var writer = new HistogramLogWriter(utf16))
        {
            writer.Write(startTime.UtcDateTime, [.. histograms]);
        }

        utf16.Position = 0;
        using var reader = new StreamReader(utf16, Encoding.Unicode, detectEncodingFromByteOrderMarks: true);
        var text = await reader.ReadToEndAsync(cancellationToken).ConfigureAwait(false);
        await File.WriteAllTextAsync(path, text, Encoding.ASCII, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Every histogram in a log file, with its tag and time stamps.</summary>
    public static IReadOnlyList<HistogramBase> Read(string path)
    {
        using var file = File.OpenRead(path);
        using var reader = new HistogramLogReader(file);
        return [.. reader.ReadHistograms()];
    }

    /// <summary>A tag the format allows (no commas or white space): the parts joined by '/', other characters as '_'.</summary>
    public static string Tag(params string[] parts) =>
        string.Join('/', parts.Select(part => new string([.. part.Select(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' or '.' or '+' ? c : '_')])));
}
