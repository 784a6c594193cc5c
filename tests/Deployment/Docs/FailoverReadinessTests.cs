using System.Globalization;
using System.Text.RegularExpressions;
using Shouldly;
using Xunit;

namespace OrderService.Deployment.Tests.Docs;

/// <summary>
/// During a database failover every replica's circuit opens at once; the deployment keeps replicas in rotation (so
/// they answer 503 with Retry-After themselves) only while the readiness window outlasts the promotion. The window
/// is read from deploy/k8s, the promotion times from docs/high-availability.md, so a slower measured failover or a
/// shorter probe fails here.
/// </summary>
public sealed partial class FailoverReadinessTests
{
    private const string Page = "docs/high-availability.md";

    [Fact]
    public void The_readiness_window_outlasts_every_promotion_time_the_page_states()
    {
        double window = ReadinessWindowSeconds();
        var page = Repository.Read(Page);

        var promotions = PromotionTimes(page);
        promotions.ShouldNotBeEmpty($"{Page} states no promotion time (the shoot-out table's 'kill → promoted' column, 'expect about N s')");
        foreach (var seconds in promotions)
        {
            window.ShouldBeGreaterThan(seconds, $"the readiness window ({window} s) must outlast a promotion of {seconds} s stated in {Page}");
        }
    }

    [Fact]
    public void The_page_states_the_deployment_s_readiness_window()
    {
        var readiness = KubernetesManifests.AppContainer.Get("readinessProbe");
        var threshold = readiness.Text("failureThreshold");
        var period = readiness.Text("periodSeconds");

        Repository.Read(Page).ShouldContain($"{threshold} × {period} s = {ReadinessWindowSeconds()} s");
    }

    private static int ReadinessWindowSeconds()
    {
        var readiness = KubernetesManifests.AppContainer.Get("readinessProbe");
        return int.Parse(readiness.Text("failureThreshold")!, CultureInfo.InvariantCulture)
            * int.Parse(readiness.Text("periodSeconds")!, CultureInfo.InvariantCulture);
    }

    private static List<double> PromotionTimes(string page)
    {
        var lines = page.Split('\n');
        var header = lines.Select((line, index) => (line, index)).Single(l => l.line.StartsWith('|') && l.line.Contains("kill → promoted", StringComparison.Ordinal));
        var column = header.line.Split('|').Select(c => c.Trim()).ToList().IndexOf("kill → promoted");
        var times = lines.Skip(header.index + 2).TakeWhile(l => l.StartsWith('|'))
            .Select(l => l.Split('|')[column].Trim())
            .Where(cell => cell.EndsWith(" s", StringComparison.Ordinal))
            .Select(cell => double.Parse(cell[..^2], CultureInfo.InvariantCulture))
            .ToList();
        times.AddRange(ExpectAbout().Matches(page).Select(m => double.Parse(m.Groups[1].Value, CultureInfo.InvariantCulture)));
        return times;
    }

    [GeneratedRegex(@"expect\s+about\s+(\d+(?:\.\d+)?)\s+s\b")]
    private static partial Regex ExpectAbout();
}
