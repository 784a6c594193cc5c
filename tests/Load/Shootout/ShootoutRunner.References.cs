namespace OrderService.Load.Shootout;

/// <summary>The references each variant is measured against: the raw store port in process, and pgbench.</summary>
public sealed partial class ShootoutRunner
{
    private async Task<(double WorkflowsPerSecond, double? CpuMsPerWorkflow, WarmupUsed Warmup)?> RunRawAsync(StoreTarget target, Variant variant, string runName, string tag, string nbomber, CancellationToken cancellationToken)
    {
        var connectionString = await target.FreshDatabaseAsync(runName + "-raw", variant, cancellationToken).ConfigureAwait(false);
        await using var client = await StoreClient.OpenAsync(variant, connectionString, cancellationToken, target.EngineSettings).ConfigureAwait(false);
        var warmup = await WarmUpAsync("raw warm-up", Path.Combine(nbomber, "raw-warmup"), size => new RawWorkflow(client.Store, new RunLedger($"{tag}rw", size), cancellationToken).Workflow(options.Concurrency), cancellationToken).ConfigureAwait(false);

        var raw = new RawWorkflow(client.Store, new RunLedger(tag + "r", options.Workflows), cancellationToken);
        await target.SettleAsync(connectionString, cancellationToken).ConfigureAwait(false);
        await JitSettle.SettleAsync("raw store port", [Environment.ProcessId], cancellationToken).ConfigureAwait(false);
        var cpuBefore = ProcessCpu.OfSelf();
        var stats = await RunClosedAsync("raw store port", Path.Combine(nbomber, "raw"), raw.Workflow(options.Concurrency), reports: true, cancellationToken: cancellationToken).ConfigureAwait(false);
        var cpu = ProcessCpu.MillisecondsPerWorkflow(cpuBefore, ProcessCpu.OfSelf(), stats.OkIterations);
        if (stats.FailedIterations > 0)
        {
            Console.WriteLine($"   raw baseline: {stats.FailedIterations} workflows failed ({string.Join(", ", stats.IterationErrors.Select(e => $"{e.Key}×{e.Value}"))})");
            foreach (var (key, message) in stats.Steps.SelectMany(s => s.ErrorSamples ?? []).DistinctBy(p => p.Key))
            {
                Console.WriteLine($"     {key}: {message}");
            }
        }

        return (stats.WorkflowsPerSecond, cpu, warmup);
    }

    private async Task<ReferenceResult> RunPgbenchAsync(StoreTarget target, CancellationToken cancellationToken)
    {
        Console.WriteLine($"== {Variant.StoreName(target.Store)} pgbench reference");
        try
        {
            var result = await PgbenchReference.RunAsync(target, options.Workflows, options.Concurrency, cancellationToken).ConfigureAwait(false);
            Console.WriteLine(Invariant($"   pgbench: {result.WorkflowsPerSecond:F0} wf/s"));
            return result;
        }
        catch (Exception exception) when (!cancellationToken.IsCancellationRequested)
        {
            Console.WriteLine($"   pgbench failed: {exception.Message}");
            return new ReferenceResult(Variant.StoreName(target.Store), "pgbench (failed)", 0, FirstLine(exception.Message));
        }
    }
}
