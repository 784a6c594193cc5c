using Microsoft.Extensions.Logging;

namespace OrderService.Data.PostgreSql;

/// <summary>
/// Tells a standby's missing table (42P01) from its other errors for <see cref="StandbyReadsOrderStore"/>, which then
/// reads on the primary, and says so in the log at most once a minute. After a first deployment the standby lacks the
/// tables for a moment; a warning that keeps coming means the read connection string names a database without them,
/// whose reads would otherwise go to the primary unnoticed.
/// </summary>
internal sealed class StandbyWithoutSchema(ILogger logger)
{
    private const long LogIntervalMilliseconds = 60_000;

    private long _lastLogged;

    public bool Matches(Exception exception)
    {
        if (!PostgresTransientFaults.IsUndefinedTable(exception))
        {
            return false;
        }

        var now = Environment.TickCount64;
        var last = Interlocked.Read(ref _lastLogged);
        if ((last == 0 || now - last >= LogIntervalMilliseconds) && Interlocked.CompareExchange(ref _lastLogged, now, last) == last)
        {
            logger.LogWarning(
                "The standby has no table the read needs ({Error}): reads go to the primary until it has. A new database's standby replays the schema a moment after start-up; if this warning keeps coming, Store:PostgreSql:ReadConnectionString names a database without the service's tables.",
                (exception as Npgsql.PostgresException)?.MessageText);
        }

        return true;
    }
}
