using System.Globalization;

namespace OrderService.Data;

/// <summary>How many rows a table holds; above <see cref="CountCap"/> it says "more than".</summary>
public sealed record TableRows(string Table, long Rows)
{
    /// <summary>Counting stops here, so the check stays cheap on a big table.</summary>
    public const int CountCap = 100_000;

    public override string ToString() => Rows > CountCap
        ? string.Create(CultureInfo.InvariantCulture, $"{Table} (more than {CountCap:N0} rows)")
        : string.Create(CultureInfo.InvariantCulture, $"{Table} ({Rows:N0} {(Rows == 1 ? "row" : "rows")})");
}
