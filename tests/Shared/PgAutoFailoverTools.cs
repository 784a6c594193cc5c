using System.Globalization;
using CliWrap;

namespace OrderService.Testing;

public sealed partial class PgAutoFailoverCluster
{
    /// <summary>
    /// pg_autoctl and the PostgreSQL binaries of the version its extension was built for, run as user postgres when we
    /// are root (PostgreSQL refuses to run as root). Every pg_autoctl gets this cluster's own folders for its
    /// configuration, state and pid files (XDG_*), so nothing lands in the postgres account's home.
    /// </summary>
    private sealed class AutoctlTools(string autoctl, string binDirectory, bool asServiceAccount)
    {
        private const string ServiceAccount = "postgres";
        private string? _root;

        public string PgCtl => Path.Combine(binDirectory, "pg_ctl");

        /// <summary>Null and the tools, or the reason they cannot run here and how to get them.</summary>
        public static string? Find(out AutoctlTools? tools)
        {
            tools = null;
            var autoctl = new[] { "/usr/bin/pg_autoctl", "/usr/local/bin/pg_autoctl" }.FirstOrDefault(File.Exists)
                ?? (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries)
                    .Select(dir => Path.Combine(dir, "pg_autoctl")).FirstOrDefault(File.Exists);

            // The extension lives in one PostgreSQL version's lib folder (Debian: postgresql-15-auto-failover).
            var binDirectory = Directory.Exists("/usr/lib/postgresql")
                ? Directory.GetDirectories("/usr/lib/postgresql")
                    .Where(dir => File.Exists(Path.Combine(dir, "lib", "pgautofailover.so")) && File.Exists(Path.Combine(dir, "bin", "pg_ctl")))
                    .OrderByDescending(dir => int.TryParse(Path.GetFileName(dir), NumberStyles.None, CultureInfo.InvariantCulture, out var v) ? v : -1)
                    .Select(dir => Path.Combine(dir, "bin"))
                    .FirstOrDefault()
                : null;
            if (autoctl is null || binDirectory is null)
            {
                return "pg_auto_failover is not installed: as root, 'apt-get install -y postgresql-15-auto-failover pg-auto-failover-cli' " +
                    "(scripts/test.sh does this when it runs as root).";
            }

            var asServiceAccount = string.Equals(Environment.UserName, "root", StringComparison.Ordinal);
            if (asServiceAccount && !File.Exists("/usr/bin/setpriv"))
            {
                return "Running as root, the pg_auto_failover nodes run as user postgres through setpriv (util-linux), which is missing.";
            }

            tools = new AutoctlTools(autoctl, binDirectory, asServiceAccount);
            return null;
        }

        public async Task PrepareAsync(string root, CancellationToken cancellationToken)
        {
            _root = root;
            foreach (var folder in new[] { "config", "data", "run" })
            {
                Directory.CreateDirectory(Path.Combine(root, folder));
            }

            if (asServiceAccount)
            {
                await Cli.Wrap("chown").WithArguments(["-R", $"{ServiceAccount}:{ServiceAccount}", root])
                    .WithValidation(CommandResultValidation.None).ExecuteAsync(cancellationToken);
            }
        }

        /// <summary>Runs one pg_autoctl command to its end, bounded; its output goes to the cluster's log.</summary>
        public async Task RunAsync(IReadOnlyList<string> arguments, TimeSpan bound, CancellationToken cancellationToken)
        {
            var log = Path.Combine(_root!, "commands.log");
            using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
            timeout.CancelAfter(bound);
            CommandResult result;
            try
            {
                result = await Command(arguments, log).WithValidation(CommandResultValidation.None)
                    .ExecuteAsync(timeout.Token);
            }
            catch (OperationCanceledException)
            {
                throw new TimeoutException($"'pg_autoctl {string.Join(' ', arguments)}' did not end within {bound.TotalSeconds:0} s. Log: {log}");
            }

            if (result.ExitCode != 0)
            {
                var tail = File.Exists(log) ? string.Join('\n', File.ReadLines(log).TakeLast(25)) : "";
                throw new InvalidOperationException(
                    $"'pg_autoctl {string.Join(' ', arguments)}' exited with {result.ExitCode}:\n{tail}");
            }
        }

        /// <summary><c>pg_autoctl run</c> for one node, in the background: the keeper, which starts its PostgreSQL.</summary>
        public KeeperProcess StartKeeper(string dataDirectory, string log) =>
            new(BackgroundProcess.Start(Command(["run", "--pgdata", dataDirectory], log)));

        private Command Command(IReadOnlyList<string> arguments, string log)
        {
            // sh only redirects and then becomes the command (exec), as setpriv becomes pg_autoctl: the pid we hold is pg_autoctl's.
            IEnumerable<string> command = asServiceAccount
                ? ["/usr/bin/setpriv", $"--reuid={ServiceAccount}", $"--regid={ServiceAccount}", "--init-groups", "--", autoctl, .. arguments]
                : [autoctl, .. arguments];
            return Cli.Wrap("/bin/sh")
                .WithArguments(["-c", "exec \"$@\" >>\"$0\" 2>&1", log, .. command])
                .WithEnvironmentVariables(variables => variables
                    .Set("XDG_CONFIG_HOME", Path.Combine(_root!, "config"))
                    .Set("XDG_DATA_HOME", Path.Combine(_root!, "data"))
                    .Set("XDG_RUNTIME_DIR", Path.Combine(_root!, "run"))
                    .Set("PG_CONFIG", Path.Combine(binDirectory, "pg_config"))
                    .Set("PATH", $"{binDirectory}:/usr/bin:/bin")
                    .Set("HOME", _root));
        }
    }

    /// <summary>A running <c>pg_autoctl run</c>: the keeper, its PostgreSQL controller, the postmaster and its backends.</summary>
    private sealed class KeeperProcess(BackgroundProcess keeper)
    {
        /// <summary>SIGKILL to the whole tree (children collected first, so nothing can restart what was killed).</summary>
        public void KillTree() => keeper.DisposeAsync().AsTask().Wait(TimeSpan.FromSeconds(10));
    }
}
