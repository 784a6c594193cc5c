namespace OrderService.Load.Shootout;

/// <summary>
/// The failover rows (--failover sync,async): PostgreSQL's durable variant 1 on a pg_auto_failover formation of its own
/// per row, with the primary killed a third of the way in (<see cref="PostgresFailoverTarget"/>).
/// </summary>
public sealed partial class ShootoutRunner
{
    /// <summary>The variant the failover rows run: the durable shared unit of work, the same as the crash rows' first.</summary>
    public const string FailoverVariant = "relational/v1-shared-uow";

    private async Task<List<VariantResult>> RunFailoverRowsAsync(string serviceDll, List<string> engineNotes, CancellationToken cancellationToken)
    {
        var rows = new List<VariantResult>();
        var variant = VariantCatalog.For(StoreKind.PostgreSql).Single(v => v.Matches(FailoverVariant));
        foreach (var synchronous in options.Failover.Select(mode => mode == PostgresFailoverTarget.Mode(true)))
        {
            var row = PostgresFailoverTarget.RowOf(variant, synchronous);
            PostgresFailoverTarget target;
            try
            {
                target = await PostgresFailoverTarget.StartAsync(synchronous, cancellationToken).ConfigureAwait(false);
            }
            catch (Exception exception) when (!cancellationToken.IsCancellationRequested)
            {
                // No pg_auto_failover here (or the formation did not come up): the row says so instead of vanishing.
                Console.WriteLine($"== {row.Key}: cannot start a pg_auto_failover formation: {exception.Message}");
                rows.Add(Row(row, crash: true, null, null, null, null, $"no formation: {FirstLine(exception.Message)}") with { Key = row.Key + "+crash" });
                _estimate?.RowFinished();
                continue;
            }

            await using (target.ConfigureAwait(false))
            {
                engineNotes.AddRange(target.Notes.Except(engineNotes));
                rows.Add(await RunVariantAsync(target, row, crash: true, serviceDll, cancellationToken).ConfigureAwait(false));
            }
        }

        return rows;
    }
}
