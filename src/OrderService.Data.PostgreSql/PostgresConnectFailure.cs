using Npgsql;

namespace OrderService.Data.PostgreSql;

/// <summary>A connection that could not be opened, for a reason the server did not report itself.</summary>
public sealed class PostgresConnectFailure(NpgsqlException inner) : NpgsqlException(inner.Message, inner);
