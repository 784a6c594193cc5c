using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.AspNetCore.TestHost;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Conformance.Infrastructure;

/// <summary>
/// The real service in memory, configured only through configuration keys (the operator's contract),
/// exactly as an operator would choose a store and its switches.
/// </summary>
public sealed class OrderServiceFactory(IReadOnlyDictionary<string, string?> settings) : WebApplicationFactory<Program>
{
    private const string CleanupInterval = "Store:IdempotencyKeys:CleanupIntervalSeconds";

    private const string OpenApiEnabled = "OpenApi:Enabled";

    /// <summary>
    /// The settings, with these unless a test sets them:
    /// - the Idempotency-Key clean-up's tick a day away: port tests stamp their keys in 2025, and a tick at the
    ///   default five minutes, in a class that runs longer, would forget them mid-test (the key-expiry tests run the
    ///   sweep themselves, or set the interval);
    /// - no tokens (<see cref="OrderServiceProcess.NoTokens"/>), unless the test chooses authorization itself;
    /// - the rate limiter off (<see cref="OrderServiceProcess.RateLimiterOff"/>);
    /// - the OpenAPI document served, which the contract tests read (outside Development it is off by default).
    /// </summary>
    public IReadOnlyDictionary<string, string?> Settings { get; } = WithDefaults(settings);

    private static Dictionary<string, string?> WithDefaults(IReadOnlyDictionary<string, string?> settings)
    {
        var all = new Dictionary<string, string?>(settings, StringComparer.OrdinalIgnoreCase);
        all.TryAdd(CleanupInterval, "86400");
        all.TryAdd(OrderServiceProcess.RateLimiterOff.Key, OrderServiceProcess.RateLimiterOff.Value);
        all.TryAdd(OpenApiEnabled, "true");
        if (!OrderServiceProcess.ChoosesAuthorization(all.Keys))
        {
            all.Add(OrderServiceProcess.NoTokens.Key, OrderServiceProcess.NoTokens.Value);
        }

        return all;
    }

    protected override void ConfigureWebHost(IWebHostBuilder builder)
    {
        // Not Development (the factory's default): a developer's appsettings.Development.json and user secrets,
        // where `dotnet user-jwts` turns authorization on, must not reach the tests.
        builder.UseEnvironment("Testing");

        // UseSetting is visible while Program builds; the in-memory source, added last, wins over any
        // Store__* variables of the machine running the tests.
        foreach (var (key, value) in Settings)
        {
            builder.UseSetting(key, value);
        }

        builder.ConfigureAppConfiguration(configuration => configuration.AddInMemoryCollection(Settings));
        builder.ConfigureLogging(logging =>
        {
            logging.ClearProviders();
            logging.AddProvider(new TestOutputLoggerProvider());
            logging.SetMinimumLevel(LogLevel.Warning);
        });

        // Lets the server's log lines reach the output of the test that sent the request.
        builder.ConfigureServices(services => services.Configure<TestServerOptions>(options => options.PreserveExecutionContext = true));
    }
}

/// <summary>Server warnings and errors go to the current test's output, so a failing test shows why.</summary>
internal sealed class TestOutputLoggerProvider : ILoggerProvider
{
    public ILogger CreateLogger(string categoryName) => new TestOutputLogger(categoryName);

    public void Dispose()
    {
    }

    private sealed class TestOutputLogger(string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state)
            where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => logLevel >= LogLevel.Warning;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            try
            {
                TestContext.Current.TestOutputHelper?.WriteLine($"[{logLevel}] {category}: {formatter(state, exception)}{(exception is null ? "" : "\n" + exception)}");
            }
            catch (InvalidOperationException)
            {
                // No test is running on this flow (start-up, shutdown): nothing to attach the line to.
            }
        }
    }
}
