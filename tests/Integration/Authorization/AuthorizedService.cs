using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Integration.Tests.Conformance.Stores;
using OrderService.Integration.Tests.Servers;
using Xunit;

namespace OrderService.Integration.Tests.Authorization;

/// <summary>The service with authorization on, on a fresh database of one store (the default switches otherwise).</summary>
public abstract class AuthorizedService(StoreFixture store) : IAsyncLifetime
{
    private OrderServiceFactory? _factory;

    public HttpClient Client { get; private set; } = null!;

    public async ValueTask InitializeAsync()
    {
        // Only a database is needed from the store fixture: its own default host is never started.
        _factory = await store.CreateFactoryAsync("authorization", TestTokens.Settings.Select(s => KeyValuePair.Create(s.Key, s.Value)));
        Client = _factory.CreateClient();
    }

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        if (_factory is not null)
        {
            await _factory.DisposeAsync();
        }

        await store.DisposeAsync();
        GC.SuppressFinalize(this);
    }
}

public sealed class AuthorizedSqlite() : AuthorizedService(new SqliteRelationalStore());

public sealed class AuthorizedPostgres(PostgresServer server) : AuthorizedService(new PostgresRelationalStore(server));
