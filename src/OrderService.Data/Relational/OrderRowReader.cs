using System.Data.Common;
using OrderService.Data.Orders;

namespace OrderService.Data.Relational;

/// <summary>Maps one row of <see cref="SqlDialect.SelectOrderById"/>'s shape to an <see cref="Order"/>.</summary>
public static class OrderRowReader
{
    public static Order Read(DbDataReader row) => new(
        row.GetGuid(0),
        row.GetString(1),
        Enum.Parse<OrderStatus>(row.GetString(2)),
        OrderJson.ParseLines(row.IsDBNull(7) ? null : row.GetString(7)),
        Money.TwoDecimals(row.GetDecimal(3)),
        row.GetInt32(4),
        ReadTimestamp(row, 5),
        ReadTimestamp(row, 6),
        OrderJson.ParseEvents(row.IsDBNull(8) ? null : row.GetString(8)));

    public static DateTimeOffset ReadTimestamp(DbDataReader row, int ordinal) =>
        row.GetFieldValue<DateTimeOffset>(ordinal).ToUniversalTime();
}
