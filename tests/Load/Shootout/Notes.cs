namespace OrderService.Load.Shootout;

/// <summary>What a reader must know to read the numbers honestly; stated in the report, not left to memory.</summary>
public static class Notes
{
    public static IEnumerable<string> For(ShootoutOptions options, IReadOnlyList<VariantResult> rows)
    {
        foreach (var note in options.Notes)
        {
            yield return note;
        }

        yield return "Each row is one run: a fresh database (SQLite file or PostgreSQL database), the published OrderService started as a process with the variant's environment variables, a warm-up, then exactly the stated number of workflows by a closed model (each copy runs workflows back to back). wf/s = acknowledged workflows ÷ wall time.";
        var (limitKey, limitOff) = ShootoutRunner.RateLimiterOff;
        yield return $"Every service ran with {limitKey}={limitOff}: its rate limiter off, since the load driver is " +
            "one client.";
        yield return "A workflow is acknowledged when all four parts answered 2xx; each part after create sends If-Match with the version from the previous reply. Lost = acknowledged but not Completed with events 1..4 in the store. Duplicates = more orders than create attempts for the run's customers, or a repeated event sequence.";
        yield return $"Each run deals its orders round-robin over W/{RunLedger.OrdersPerCustomer} customers (the parent entity), so concurrent workflows belong to different customers; pgbench uses one customer per client.";
        if (rows.Any(r => r.Store == "postgres"))
        {
            yield return "PostgreSQL runs READ UNCOMMITTED as READ COMMITTED, so its v3-nolock row has the same isolation as v1-shared-uow and cannot show dirty reads.";
            yield return "MongoDB's journal commit interval (variant 5: 2 ms) maps to PostgreSQL's commit_delay (2000 µs) + commit_siblings (5): PostgreSQL waits only when at least 5 other transactions are open, and only before flushing; MongoDB's interval is a timer for every journaled write. MongoDB j:false maps to synchronous_commit=off: a crash can lose the last moments of commits; nothing is corrupted.";
        }

        if (options.AbortRate > 0 && rows.Any(r => r.Audit is { WritesHeld: 0 }))
        {
            yield return "Dirty reads: the harness holds a pay's write to an order of its own uncommitted on its own "
                + "connection, then rolls it back, on the relational layout of PostgreSQL and SQL Server. Elsewhere "
                + "they are not measured: SQLite's shared cache shows uncommitted writes only inside the service's "
                + "process, which holds none; MongoDB and the document layout have no such row.";
        }

        if (rows.Any(r => r.Crash))
        {
            yield return "Crash runs: PostgreSQL gets kill -9 on the postmaster and every backend a third of the way in, then pg_ctl start (crash recovery); SQLite gets kill -9 on the service process (the database lives in it), then a restart on the same port. Clients retry connection failures and 503s with the same Idempotency-Key / If-Match. A process crash keeps what reached the operating system, so SQLite synchronous=OFF/NORMAL loses nothing here; only power loss shows that trade. PostgreSQL synchronous_commit=off can lose WAL still in shared memory.";
        }

        if (options.BaselineCommit is { } commit)
        {
            yield return $"Rows named @{commit} ran the service built from commit {commit} (git archive, published like the working tree), right after their twin, on a fresh database with the same settings; no raw baseline is run for them. Service CPU per workflow: the service process's user + system CPU (/proc/<pid>/stat) over the measured window ÷ workflows.";
        }

        if (options.BaselineFirst)
        {
            yield return "--baseline-first: each variant's baseline row ran right BEFORE its twin in this run.";
        }

        if (rows.Any(r => r.Store == "postgres"))
        {
            yield return "Before every measured window (after the warm-up), pgbench's and the raw store port's too, PostgreSQL ran ANALYZE on the row's database, so that it has the statistics autovacuum gives a database in production, and a CHECKPOINT, so that no row inherits the checkpoint the previous run's WAL set off (unless the console says the role may not).";
        }

        if (rows.Any(r => r.DatabaseStatements is not null))
        {
            yield return "--pg-statements: PostgreSQL counted every statement (pg_stat_statements), which costs the server a little on each one; compare this run's rows with each other, not with a run without it.";
        }

        if (options.ServiceEnvironment.Count > 0)
        {
            var set = string.Join(", ", options.ServiceEnvironment.Select(pair => $"{pair.Key}={pair.Value}"));
            yield return $"The service under test ran with {set} (--service-env); rows named @{options.BaselineCommit ?? "baseline"} ran without it.";
        }

        if (rows.Any(r => r.Variant.EndsWith(Variant.OtlpSuffix, StringComparison.Ordinal)))
        {
            yield return "Rows named +otlp ran right after their twin with OTEL_EXPORTER_OTLP_ENDPOINT set to a local sink that accepts OTLP/HTTP and drops it (every span sampled, metrics every 10 s, logs at Warning); their twin ran with no endpoint, where the service registers no OpenTelemetry provider at all.";
        }

        if (!rows.Any(r => r.Store == "sqlserver"))
        {
            yield return "SQL Server is not in this run: no engine installs here. Pass --sqlserver \"<connection string>\" to add it.";
        }

        if (rows.Any(r => r.Store == "mongodb"))
        {
            yield return "MongoDB (WiredTiger): j:true makes the server sync the journal for that write at once, and concurrent j:true writes share one sync, so today's v4 already group-commits; --journalCommitInterval (v5: 2 ms instead of 100) mostly shortens how much acknowledged j:false work a crash can lose. The seed's 2013 engine (MMAPv1) made j:true wait for the interval, hence its large v4/v5 gap. The majority row on a single-node replica set waits for that node's journal, not for another machine.";
            yield return "MongoDB rows: UnitOfWork=PerRequest (v1 and later) runs each request's commands in one causally consistent session; baseline uses the driver's implicit session per command. One MongoClient (one pool) serves every request in both.";
        }
        else
        {
            yield return "MongoDB is not in this run: pass --mongodb \"mongodb://127.0.0.1:27017/?directConnection=true\" (docker compose up -d --wait mongo mongo-group-commit; --mongodb-group-commit for variant 5). The document layout carries the seed's MongoDB side on PostgreSQL (jsonb) and SQLite (json).";
        }
        if (options.AbortRate <= 0)
        {
            yield return "The dirty-read probe was off (--abort-rate 0): dirty reads are not measured.";
        }

        var shortRuns = rows.Count(r => r.Conditions is { IsShort: true });
        if (shortRuns > 0)
        {
            yield return $"{shortRuns} measured run(s) lasted under {RunConditions.ShortRunSeconds:F0} s (flagged short under Run conditions): in a run that short the tail (the last copies finishing, one GC or checkpoint) weighs heavily, and a ranking can flip. Quote figures from runs of 10,000 workflows. The warm-up is not scaled down to match: it brings the service to steady state, which takes as long whatever the run's size.";
        }

        var noisyRuns = rows.Count(r => r.Conditions is { IsNoisy: true });
        if (noisyRuns > 0)
        {
            yield return $"{noisyRuns} run(s) are flagged noisy: in the second before or after them, with the harness idle, the CPU was at least {RunConditions.NoisyBackgroundCpu * 100:F0}% busy with other processes' work, which also competed with the run.";
        }

        if (Environment.ProcessorCount <= 2)
        {
            yield return $"This machine has {Environment.ProcessorCount} cores shared by the load driver, the service and the database (and by anything else running): compare rows of one report, not numbers across machines or busy moments.";
        }
    }
}
