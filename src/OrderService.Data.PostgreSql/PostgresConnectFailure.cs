using Npgsql;

namespace OrderService.Data.PostgreSql;

/// <summary>
/// A connection not opened, for a reason the server did not report: nothing was sent, a rerun is safe.
/// </summary>
public sealed class PostgresConnectFailure(NpgsqlException inner) : NpgsqlException(inner.Message, inner);
