using MongoDB.Bson;
using MongoDB.Driver;
using OrderService.Data.MongoDb;
using Shouldly;
using Xunit;
using static OrderService.Unit.Tests.Commands.MongoDefinitionRenderTests;

namespace OrderService.Unit.Tests.Commands;

/// <summary>The clean-up of expired Idempotency-Keys as the MongoDB JSON it sends: an indexed find, then a $pull of the expired entries only.</summary>
public sealed class MongoKeyExpiryRenderTests
{
    [Fact]
    public void The_key_age_index_is_partial_on_the_entries_time_and_not_a_TTL_index()
    {
        var index = OrderDefinitions.KeyAgeIndex;
        var options = index.Options.ShouldBeOfType<CreateIndexOptions<BsonDocument>>();

        Rendered.Json(index.Keys).ShouldBe("""{ "keys.at" : 1 }""");
        options.Name.ShouldBe("idempotency_keys_at");
        options.Unique.ShouldBeNull();
        options.ExpireAfter.ShouldBeNull();
        Rendered.Json(options.PartialFilterExpression).ShouldBe("""{ "keys.at" : { "$exists" : true } }""");
    }

    [Fact]
    public void The_batch_finds_orders_holding_a_key_stored_before_the_cutoff() =>
        Rendered.Json(OrderDefinitions.HoldingKeysStoredBefore(At)).ShouldBe($$"""{ "keys.at" : { "$lt" : NumberLong("{{AtMicros}}") } }""");

    [Fact]
    public void The_update_pulls_only_the_expired_entries_of_the_orders_found() =>
        Rendered.Json(OrderDefinitions.ForgetKeysStoredBefore(At)).ShouldBe($$"""{ "$pull" : { "keys" : { "at" : { "$lt" : NumberLong("{{AtMicros}}") } } } }""");

    [Fact]
    public void The_update_is_limited_to_the_batch_and_still_to_expired_entries() =>
        Rendered.Json(OrderDefinitions.HoldingKeysStoredBefore(At, [new BsonInt32(7)])).ShouldBe(
            $$"""{ "_id" : { "$in" : [7] }, "keys.at" : { "$lt" : NumberLong("{{AtMicros}}") } }""");
}
