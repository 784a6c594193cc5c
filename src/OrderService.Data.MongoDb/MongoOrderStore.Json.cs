using System.Runtime.CompilerServices;
using MongoDB.Bson;
using MongoDB.Driver;

namespace OrderService.Data.MongoDb;

/// <summary>
/// The batch and the listing's rows as API JSON, for <see cref="MongoOrderJsonReads"/>: the same finds as the Order reads
/// (filter, projection, sort, batch sizes, session), but the cursor hands back each document as the raw bytes of its
/// reply (<see cref="RawBsonDocument"/>) and <see cref="OrderBsonJson"/> writes them straight into the response's
/// writer: no Order, no BsonDocument, no strings per order.
/// </summary>
public sealed partial class MongoOrderStore
{
    internal async IAsyncEnumerable<OrderJsonRow> GetManyJsonAsync(IReadOnlyCollection<Guid> ids, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        var chunks = BatchChunks(ids);
        if (chunks.Count == 0)
        {
            yield break;
        }

        using var session = await StartSessionAsync(cancellationToken);
        foreach (var chunk in chunks)
        {
            await foreach (var row in StreamJsonAsync(session, OrderDefinitions.ByIds(chunk), BatchOptions(OrderDefinitions.RawWithoutKeys, chunk.Length), cancellationToken))
            {
                yield return row;
            }
        }
    }

    internal async Task<OrderJsonPage> ListByCustomerJsonAsync(CustomerOrdersQuery query, CancellationToken cancellationToken)
    {
        var positions = await ReadLookaheadAsync(query, cancellationToken);
        return OrderJsonPage.FromLookahead(positions, query.Limit, range => StreamPageJsonAsync(query, range, CancellationToken.None));
    }

    /// <summary>The page's orders as JSON: cold (a session and cursor of its own per enumeration), no limit (the range bounds it), newest first.</summary>
    private async IAsyncEnumerable<OrderJsonRow> StreamPageJsonAsync(CustomerOrdersQuery query, PageRange range, [EnumeratorCancellation] CancellationToken cancellationToken)
    {
        using var session = await StartSessionAsync(cancellationToken);
        await foreach (var row in StreamJsonAsync(session, OrderDefinitions.PageRows(query, range), PageRowOptions(OrderDefinitions.RawWithoutKeys, query), cancellationToken))
        {
            yield return row;
        }
    }

    /// <summary>
    /// Yields one row per document as its batch arrives, the same row object each time (valid until the next row). A
    /// batch's documents hold slices of the reply's pooled buffer, so they are all released when the batch is done,
    /// also when the reader stops early.
    /// </summary>
    private async IAsyncEnumerable<OrderJsonRow> StreamJsonAsync(
        IClientSessionHandle? session, FilterDefinition<BsonDocument> filter, FindOptions<BsonDocument, RawBsonDocument> options, [EnumeratorCancellation] CancellationToken cancellationToken)
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
