using MongoDB.Bson;
using OrderService.Data;
using OrderService.Data.MongoDb;
using OrderService.Data.Orders;
using Shouldly;
using Xunit;
using static OrderService.Unit.Tests.Commands.MongoDefinitionRenderTests;

namespace OrderService.Unit.Tests.Commands;

/// <summary>
/// The port's two newer commands as the MongoDB JSON they render to: a keyed transition (the key in the filter and in
/// the same update as the event) and the keyset page (the positions-only lookahead and the range of the rows).
/// </summary>
public sealed class MongoKeyAndPagingRenderTests
{
    private const string Id = """UUID("0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001")""";
    private static readonly Guid LastId = Guid.Parse("0199aaaa-bbbb-7ccc-8ddd-eeeeffff0009");
    private const string Last = """UUID("0199aaaa-bbbb-7ccc-8ddd-eeeeffff0009")""";

    // One second before At: 2025-03-04T05:06:06.123456Z.
    private const string LastMicros = "1741064766123456";

    [Fact]
    public void A_keyed_transition_matches_only_an_order_that_does_not_hold_the_key_yet() =>
        Rendered.Json(OrderDefinitions.Transitionable(Keyed(OrderAction.Pay, expectedVersion: 1))).ShouldBe(
            $$"""{ "_id" : {{Id}}, "status" : { "$in" : ["Created"] }, "version" : 1, "keys.key" : { "$ne" : "pay-1" } }""");

    [Fact]
    public void Without_If_Match_the_keyed_filter_has_no_version() =>
        Rendered.Json(OrderDefinitions.Transitionable(Keyed(OrderAction.Cancel, expectedVersion: null))).ShouldBe(
            $$"""{ "_id" : {{Id}}, "status" : { "$in" : ["Created", "Paid"] }, "keys.key" : { "$ne" : "pay-1" } }""");

    [Fact]
    public void The_keyed_update_appends_the_key_in_the_same_stage_with_the_stored_version_plus_one() =>
        Rendered.Json(OrderDefinitions.Transition(Keyed(OrderAction.Complete, expectedVersion: null))).ShouldBe(
            $$"""[{ "$set" : { "status" : { "$literal" : "Completed" }, "updatedAt" : NumberLong("{{AtMicros}}"), "version" : { "$add" : ["$version", 1] }, "events" : { "$concatArrays" : ["$events", [{ "sequence" : { "$add" : ["$version", 1] }, "type" : { "$literal" : "Completed" }, "at" : NumberLong("{{AtMicros}}"), "data" : { "$literal" : { } } }]] }, "keys" : { "$concatArrays" : [{ "$ifNull" : ["$keys", []] }, [{ "key" : { "$literal" : "pay-1" }, "requestHash" : { "$literal" : "HASH" }, "version" : { "$add" : ["$version", 1] }, "at" : NumberLong("{{AtMicros}}") }]] } } }]""");

    [Fact]
    public void An_unkeyed_transition_neither_filters_on_keys_nor_writes_them()
    {
        Rendered.Json(OrderDefinitions.Transitionable(Command(OrderAction.Pay, 1))).ShouldNotContain("keys");
        Rendered.Json(OrderDefinitions.Transition(Command(OrderAction.Pay, 1))).ShouldNotContain("keys");
        Rendered.Json(OrderDefinitions.Transition(Command(OrderAction.Pay, null))).ShouldNotContain("keys");
    }

    [Fact]
    public void A_key_that_looks_like_a_field_path_stays_a_literal_in_the_pipeline() =>
        Rendered.Json(OrderDefinitions.Transition(Command(OrderAction.Pay, null) with { IdempotencyKey = "$version", RequestHash = "$total" }))
            .ShouldContain($$"""{ "key" : { "$literal" : "$version" }, "requestHash" : { "$literal" : "$total" }, "version" : { "$add" : ["$version", 1] }, "at" : NumberLong("{{AtMicros}}") }""");

    [Fact]
    public void The_first_page_lookahead_is_the_customer_and_status_alone() =>
        Rendered.Json(OrderDefinitions.PagePositions(new CustomerOrdersQuery("c-1", OrderStatus.Paid, 20))).ShouldBe(
            """{ "customerId" : "c-1", "status" : "Paid" }""");

    [Fact]
    public void A_later_lookahead_starts_strictly_after_the_cursor_with_a_bound_on_created_at_and_the_id_breaking_ties() =>
        Rendered.Json(OrderDefinitions.PagePositions(new CustomerOrdersQuery("c-1", null, 20, new OrderPosition(At, OrderId)))).ShouldBe(
            $$"""{ "customerId" : "c-1", "createdAt" : { "$lte" : NumberLong("{{AtMicros}}") }, "$or" : [{ "createdAt" : { "$lt" : NumberLong("{{AtMicros}}") } }, { "_id" : { "$lt" : {{Id}} } }] }""");

    [Fact]
    public void The_page_rows_are_the_range_between_its_first_and_last_position_both_inclusive()
    {
        var range = new PageRange(new OrderPosition(At, OrderId), new OrderPosition(At.AddSeconds(-1), LastId));

        Rendered.Json(OrderDefinitions.PageRows(new CustomerOrdersQuery("c-1", OrderStatus.Shipped, 20), range)).ShouldBe(
            // Two $or clauses cannot share one document, so the driver spells the whole conjunction as one explicit $and (the planner flattens it).
            $$"""{ "$and" : [{ "customerId" : "c-1" }, { "status" : "Shipped" }, { "createdAt" : { "$lte" : NumberLong("{{AtMicros}}"), "$gte" : NumberLong("{{LastMicros}}") } }, { "$or" : [{ "createdAt" : { "$lt" : NumberLong("{{AtMicros}}") } }, { "_id" : { "$lte" : {{Id}} } }] }, { "$or" : [{ "createdAt" : { "$gt" : NumberLong("{{LastMicros}}") } }, { "_id" : { "$gte" : {{Last}} } }] }] }""");
    }

    [Fact]
    public void The_lookahead_reads_positions_only_from_fields_of_the_customer_index_newest_first()
    {
        Rendered.Json(OrderDefinitions.PositionOnly).ShouldBe("""{ "_id" : 1, "createdAt" : 1 }""");
        Rendered.Json(OrderDefinitions.NewestFirst).ShouldBe("""{ "createdAt" : -1, "_id" : -1 }""");
        Rendered.Json(OrderDefinitions.CustomerIndex.Keys).ShouldBe("""{ "customerId" : 1, "createdAt" : -1, "_id" : -1 }""");
    }

    [Fact]
    public void A_position_reads_back_to_the_microsecond_and_the_id()
    {
        var document = new BsonDocument { { "_id", OrderBson.IdValue(OrderId) }, { "createdAt", OrderBson.ToMicroseconds(At) } };

        OrderDefinitions.Position(document).ShouldBe(new OrderPosition(At, OrderId));
    }

    private static TransitionCommand Keyed(OrderAction action, int? expectedVersion, OrderEventData? data = null) =>
        Command(action, expectedVersion, data) with { IdempotencyKey = "pay-1", RequestHash = "HASH" };
}
