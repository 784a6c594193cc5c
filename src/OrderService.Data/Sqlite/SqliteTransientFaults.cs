using Microsoft.Data.Sqlite;

namespace OrderService.Data.Sqlite;

/// <summary>BUSY and LOCKED mean another writer held the lock past busy_timeout; CANTOPEN and IOERR mean the file is out of reach.</summary>
public sealed class SqliteTransientFaults : ITransientFaults
{
    private const int Busy = 5;
    private const int Locked = 6;
    private const int IoError = 10;
    private const int CantOpen = 14;

    public bool IsTransient(Exception exception) => exception switch
    {
        SqliteException sqlite => (sqlite.SqliteErrorCode & 0xFF) is Busy or Locked or IoError or CantOpen,
        TimeoutException => true,
        _ => false,
    };
}
