using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Toolchains.InProcess.Emit;

namespace OrderService.Benchmarks;

/// <summary>
/// ShortRun (3 warm-ups, 3 iterations, 1 launch) in the host process: expensive shared fixtures (a seeded
/// database, a warm web host) are built once for every case instead of once per case's child process.
/// Fast enough for a noisy shared machine; rerun with --job Medium on a quiet one for tighter errors.
/// </summary>
public sealed class InProcessShortRun : ManualConfig
{
    public InProcessShortRun()
    {
        AddJob(Job.ShortRun.WithToolchain(InProcessEmitToolchain.Instance));
        AddDiagnoser(MemoryDiagnoser.Default);
    }
}
