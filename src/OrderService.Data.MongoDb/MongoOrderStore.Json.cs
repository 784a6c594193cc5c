using System.Runtime.CompilerServices;
using MongoDB.Bson;
using MongoDB.Driver;

namespace OrderService.Data.MongoDb;

/// <summary>The batch and the listing's rows as API JSON, for <see cref="MongoOrderJsonReads"/>.</summary>
public sealed partial class MongoOrderStore
{
    internal async IAsyncEnumerable<OrderJsonRow> GetManyJsonAsync(IReadOnlyCollection<Guid> ids,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var chunks = BatchChunks(ids);
        if (chunks.Count == 0)
        {
            yield break;
        }

        using var session = await StartSessionAsync(cancellationToken);
        foreach (var chunk in chunks)
        {
            await foreach (var row in StreamJsonAsync(session, OrderDefinitions.ByIds(chunk),
                BatchOptions(OrderDefinitions.RawWithoutKeys, chunk.Length), cancellationToken))
            {
                yield return row;
            }
        }
    }

    internal async Task<OrderJsonPage> ListByCustomerJsonAsync(CustomerOrdersQuery query,
        CancellationToken cancellationToken)
    {
        var positions = await ReadLookaheadAsync(query, cancellationToken);
        return OrderJsonPage.FromLookahead(positions, query.Limit, range =>
            StreamPageJsonAsync(query, range, CancellationToken.None));
    }

    private async IAsyncEnumerable<OrderJsonRow> StreamPageJsonAsync(CustomerOrdersQuery query, PageRange range,
        [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using var session = await StartSessionAsync(cancellationToken);
        await foreach (var row in StreamJsonAsync(session, OrderDefinitions.PageRows(query, range),
            PageRowOptions(OrderDefinitions.RawWithoutKeys, query), cancellationToken))
        {
            yield return row;
        }
    }

    private async IAsyncEnumerable<OrderJsonRow> StreamJsonAsync(
        IClientSessionHandle? session, FilterDefinition<BsonDocument> filter, FindOptions<BsonDocument,
            RawBsonDocument> options, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using var cursor = await FindAsync(_orders, session, filter, options, cancellationToken);
        var row = new MongoOrderJsonRow();
        while (await cursor.MoveNextAsync(cancellationToken))
        {
            var batch = cursor.Current;
            try
            {
                foreach (var document in batch)
                {
                    row.Show(document);
                    yield return row;
                }
            }
            finally
            {
                foreach (var document in batch)
                {
                    document.Dispose();
                }
            }
        }
    }
}
