using System.Globalization;
using Microsoft.Data.Sqlite;

namespace OrderService.Data.Sqlite;

/// <summary>BUSY and LOCKED rolled back, rerun whole; CANTOPEN wrote nothing; IOERR may have hit the commit.</summary>
public sealed class SqliteTransientFaults : ITransientFaults
{
    private const int Busy = 5;
    private const int Locked = 6;
    private const int IoError = 10;
    private const int CantOpen = 14;

    public StoreFault Classify(Exception exception) => exception switch
    {
        SqliteException sqlite => (sqlite.SqliteErrorCode & 0xFF) switch
        {
            Busy or Locked => StoreFault.RolledBack,
            CantOpen => StoreFault.Unreachable,
            IoError => StoreFault.Interrupted,
            _ => StoreFault.Permanent,
        },
        TimeoutException => StoreFault.Interrupted,
        _ => StoreFault.Permanent,
    };

    public string? DescribeError(Exception exception) => exception is SqliteException sqlite
        ? string.Create(CultureInfo.InvariantCulture,
            $"SQLite error {sqlite.SqliteErrorCode} (extended {sqlite.SqliteExtendedErrorCode}): {sqlite.Message}")
        : null;

    public IReadOnlyList<string> DriverNamespaces { get; } = ["Microsoft.Data.Sqlite.", "SQLitePCL."];
}
