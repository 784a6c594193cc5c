using OrderService.Load.Shootout;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Load;

public sealed class ReportPathsTests
{
    private const string Repository = "/work/wt-x";

    [Fact]
    public void Paths_of_the_machine_become_repository_relative_or_named_for_what_they_are()
    {
        var temp = Path.GetTempPath().TrimEnd('/');
        var text = $"--out /srv/runs/a --service-dll /srv/runs/a/service/OrderService.dll --sqlserver-engine {temp}/bbf "
            + $"data under {Repository}/docs/shootout/x/data, engines at /work/shared/engines/babelfish/start.sh, repo {Repository}";

        var scrubbed = ReportPaths.Scrub(text, Repository, "/srv/runs/a");

        scrubbed.ShouldBe("--out $OUT --service-dll $OUT/service/OrderService.dll --sqlserver-engine $TMPDIR/bbf "
            + "data under docs/shootout/x/data, engines at ../shared/engines/babelfish/start.sh, repo .");
    }

    [Fact]
    public void An_output_folder_inside_the_repository_stays_repository_relative_and_longer_names_are_left_alone()
    {
        var scrubbed = ReportPaths.Scrub($"--out {Repository}/docs/shootout/q {Repository}-other/file /workers/file /proc/1/stat wf/s", Repository, $"{Repository}/docs/shootout/q");

        // wt-x-other lies beside the repository; /workers only starts like its parent /work; /proc is the system's.
        scrubbed.ShouldBe("--out docs/shootout/q ../wt-x-other/file /workers/file /proc/1/stat wf/s");
    }
}
