using Npgsql;

namespace OrderService.Data.PostgreSql;

/// <summary>
/// A connection that could not be opened, for a reason the server did not report itself: refused, timed out, no
/// host in a multi-host list that matches Target Session Attributes ("No suitable host was found", every host down
/// or a standby during a failover), the pool exhausted. Nothing of the unit of work was sent, so it is
/// <see cref="StoreFault.Unreachable"/> (the pool exhausted: <see cref="StoreFault.Saturated"/>, which the breaker does
/// not count): safe to rerun, a 503 when reruns run out. It stays an
/// <see cref="NpgsqlException"/> so that code which catches the driver's exceptions still does.
/// Errors the server reported at connect (a wrong password, a missing database) are left as they are, since their
/// SQLSTATE says more.
/// </summary>
public sealed class PostgresConnectFailure(NpgsqlException inner) : NpgsqlException(inner.Message, inner);
