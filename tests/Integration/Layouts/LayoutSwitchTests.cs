using System.Collections.Concurrent;
using Microsoft.AspNetCore.Hosting;
using Microsoft.Data.Sqlite;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using OrderService.Data;
using OrderService.Data.Relational;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Servers;
using OrderService.Integration.Tests.Traits;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Layouts;

/// <summary>
/// Store:Layout switched on a database that holds the other layout's orders: the service shows an empty
/// store (it reads only its own layout's tables), so start-up logs a warning naming the other layout's
/// tables and their rows, and the schema port reports the same. SQLite and PostgreSQL, both directions.
/// </summary>
public sealed class LayoutSwitchTests(PostgresServer postgres) : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("orders-layout-").FullName;

    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Theory]
    [StoreData("Sqlite", "Relational")]
    [StoreData("Sqlite", "Document")]
    [StoreData("PostgreSql", "Relational")]
    [StoreData("PostgreSql", "Document")]
    public async Task Switching_the_layout_on_a_database_with_orders_warns_at_start_up_naming_the_tables_and_their_rows(string provider, string written)
    {
        var connectionString = await NewDatabaseAsync(provider);
        var customer = Ids.NewCustomer();
        await using (var before = new OrderServiceFactory(Settings(provider, written, connectionString)))
        {
            var api = new OrderApi(before.CreateClient(), Ct);
            var first = await api.CreateOrderAsync(customer);
            await api.TransitionOkAsync(first.Id, "pay", new { paymentReference = "p-1" }, "\"1\"");
            await api.CreateOrderAsync(customer);
        }

        var switched = written == "Relational" ? "Document" : "Relational";
        var logs = new WarningCapture();
        await using var after = new OrderServiceFactory(Settings(provider, switched, connectionString))
            .WithWebHostBuilder(host => host.ConfigureLogging(logging => logging.AddProvider(logs)));
        var switchedApi = new OrderApi(after.CreateClient(), Ct);

        (await switchedApi.ListAsync(customer)).ShouldBeEmpty("the other layout's orders are not read: this is what the warning is for");

        var expected = written == "Relational"
            ? new[] { "orders (2 rows)", "order_lines (2 rows)", "order_events (3 rows)", "customers (1 row)" }
            : ["order_documents (2 rows)"];
        var warning = await logs.WaitForAsync(line => line.Contains("also holds data", StringComparison.Ordinal));
        warning.ShouldContain($"Store:Layout={switched}, but this database also holds data of the {written} layout");
        warning.ShouldContain($"start with Store:Layout={written}");
        foreach (var table in expected)
        {
            warning.ShouldContain(table);
        }

        var reported = await after.Services.GetRequiredService<IStoreSchema>().FindOtherLayoutRowsAsync(Ct);
        reported.Select(r => r.ToString()).ShouldBe(expected.Select(e => e), ignoreOrder: true, customMessage: "the port reports what the warning names");
        reported.Select(r => r.Table).ShouldBeSubsetOf(LayoutTables.Of(Enum.Parse<StoreLayout>(written)));
    }

    [Theory]
    [StoreData("Sqlite", "Relational")]
    [StoreData("Sqlite", "Document")]
    [StoreData("PostgreSql", "Relational")]
    [StoreData("PostgreSql", "Document")]
    public async Task A_database_holding_only_its_own_layout_reports_nothing_of_the_other(string provider, string layout)
    {
        var connectionString = await NewDatabaseAsync(provider);
        await using var factory = new OrderServiceFactory(Settings(provider, layout, connectionString));
        await new OrderApi(factory.CreateClient(), Ct).CreateOrderAsync(Ids.NewCustomer());

        (await factory.Services.GetRequiredService<IStoreSchema>().FindOtherLayoutRowsAsync(Ct)).ShouldBeEmpty();
    }

    public void Dispose()
    {
        SqliteConnection.ClearAllPools();
        try
        {
            Directory.Delete(_folder, recursive: true);
        }
        catch (IOException)
        {
        }
    }

    private async Task<string> NewDatabaseAsync(string provider) => provider == "Sqlite"
        ? $"Data Source={Path.Combine(_folder, $"{Guid.NewGuid():N}.db")}"
        : await (await postgres.GetAsync()).CreateDatabaseAsync("layout_switch", Ct);

    private static Dictionary<string, string?> Settings(string provider, string layout, string connectionString) => new()
    {
        ["Store:Provider"] = provider,
        ["Store:Layout"] = layout,
        ["ConnectionStrings:Orders"] = connectionString,
    };

    /// <summary>The service's warnings, as formatted lines, with a way to wait for one.</summary>
    private sealed class WarningCapture : ILoggerProvider
    {
        private readonly ConcurrentQueue<string> _lines = new();

        public ILogger CreateLogger(string categoryName) => new Logger(_lines);

        public async Task<string> WaitForAsync(Func<string, bool> match)
        {
            var deadline = DateTime.UtcNow + TimeSpan.FromSeconds(30);
            while (true)
            {
                var found = _lines.FirstOrDefault(match);
                if (found is not null)
                {
                    return found;
                }

                DateTime.UtcNow.ShouldBeLessThan(deadline, $"no such warning; the service logged: {string.Join(" | ", _lines)}");
                await Task.Delay(100, Ct);
            }
        }

        public void Dispose()
        {
        }

        private sealed class Logger(ConcurrentQueue<string> lines) : ILogger
        {
            public IDisposable? BeginScope<TState>(TState state)
                where TState : notnull => null;

            public bool IsEnabled(LogLevel logLevel) => logLevel >= LogLevel.Warning;

            public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
            {
                if (IsEnabled(logLevel))
                {
                    lines.Enqueue(formatter(state, exception));
                }
            }
        }
    }
}
