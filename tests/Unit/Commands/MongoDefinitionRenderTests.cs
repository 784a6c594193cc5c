using MongoDB.Bson;
using MongoDB.Driver;
using OrderService.Data;
using OrderService.Data.MongoDb;
using OrderService.Data.Orders;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Commands;

/// <summary>Every filter, update, projection, sort and index the MongoDB store sends, as the exact MongoDB JSON it renders to.</summary>
public sealed class MongoDefinitionRenderTests
{
    internal static readonly Guid OrderId = Guid.Parse("0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001");

    // 2025-03-04T05:06:07.123456Z: all six microsecond digits set.
    internal static readonly DateTimeOffset At = new DateTimeOffset(2025, 3, 4, 5, 6, 7, TimeSpan.Zero).AddTicks(1_234_560);
    internal const string AtMicros = "1741064767123456";

    [Fact]
    public void By_id_is_the_uuid_as_binary_subtype_4() =>
        Rendered.Json(OrderDefinitions.ById(OrderId)).ShouldBe("""{ "_id" : UUID("0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001") }""");

    [Fact]
    public void By_ids_is_one_in_with_every_id()
    {
        var second = Guid.Parse("0199aaaa-bbbb-7ccc-8ddd-eeeeffff0002");

        Rendered.Json(OrderDefinitions.ByIds([OrderId, second])).ShouldBe(
            """{ "_id" : { "$in" : [UUID("0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001"), UUID("0199aaaa-bbbb-7ccc-8ddd-eeeeffff0002")] } }""");
    }

    [Fact]
    public void By_key_matches_any_entry_of_the_embedded_keys() =>
        Rendered.Json(OrderDefinitions.ByKey("order-42")).ShouldBe("""{ "keys.key" : "order-42" }""");

    [Fact]
    public void The_customer_listing_filters_on_the_customer_and_optionally_the_status()
    {
        Rendered.Json(OrderDefinitions.ByCustomer("c-1", null)).ShouldBe("""{ "customerId" : "c-1" }""");
        Rendered.Json(OrderDefinitions.ByCustomer("c-1", OrderStatus.Paid)).ShouldBe("""{ "customerId" : "c-1", "status" : "Paid" }""");
    }

    [Fact]
    public void The_listing_sorts_newest_first_with_the_id_breaking_ties() =>
        Rendered.Json(OrderDefinitions.NewestFirst).ShouldBe("""{ "createdAt" : -1, "_id" : -1 }""");

    [Fact]
    public void Reads_project_the_keys_away_and_read_with_the_order_class_map()
    {
        Rendered.Json(OrderDefinitions.WithoutKeys).ShouldBe("""{ "keys" : 0 }""");
        OrderDefinitions.WithoutKeys.Render(Rendered.Args).ProjectionSerializer.ShouldBeSameAs(OrderClassMaps.Order);
    }

    [Fact]
    public void The_explaining_read_projects_status_and_version_only() =>
        Rendered.Json(OrderDefinitions.StateOnly).ShouldBe("""{ "status" : 1, "version" : 1, "_id" : 0 }""");

    [Theory]
    [InlineData(OrderAction.Pay, """["Created"]""")]
    [InlineData(OrderAction.Ship, """["Paid"]""")]
    [InlineData(OrderAction.Complete, """["Shipped"]""")]
    [InlineData(OrderAction.Cancel, """["Created", "Paid"]""")]
    public void The_transition_filter_carries_the_statuses_the_rules_allow(OrderAction action, string allowed) =>
        Rendered.Json(OrderDefinitions.Transitionable(Command(action, expectedVersion: null))).ShouldBe(
            $$"""{ "_id" : UUID("0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001"), "status" : { "$in" : {{allowed}} } }""");

    [Fact]
    public void With_If_Match_the_transition_filter_also_carries_the_version() =>
        Rendered.Json(OrderDefinitions.Transitionable(Command(OrderAction.Ship, expectedVersion: 2))).ShouldBe(
            """{ "_id" : UUID("0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001"), "status" : { "$in" : ["Paid"] }, "version" : 2 }""");

    [Fact]
    public void The_update_is_one_pipeline_stage_whose_sequence_is_the_stored_version_plus_one() =>
        Rendered.Json(OrderDefinitions.Transition(Command(OrderAction.Ship, expectedVersion: null, new OrderEventData(Carrier: "DHL", TrackingNumber: "T-1")))).ShouldBe(
            $$"""[{ "$set" : { "status" : { "$literal" : "Shipped" }, "updatedAt" : NumberLong("{{AtMicros}}"), "version" : { "$add" : ["$version", 1] }, "events" : { "$concatArrays" : ["$events", [{ "sequence" : { "$add" : ["$version", 1] }, "type" : { "$literal" : "Shipped" }, "at" : NumberLong("{{AtMicros}}"), "data" : { "$literal" : { "carrier" : "DHL", "trackingNumber" : "T-1" } } }]] } } }]""");

    [Fact]
    public void A_client_value_that_looks_like_a_field_path_stays_a_literal_in_the_pipeline()
    {
        var update = Rendered.Json(OrderDefinitions.Transition(Command(OrderAction.Pay, expectedVersion: null, new OrderEventData(PaymentReference: "$total"))));

        update.ShouldContain("""{ "$literal" : { "paymentReference" : "$total" } }""");
    }

    [Fact]
    public void A_cancel_event_keeps_its_reason_and_a_completed_one_has_empty_data()
    {
        Rendered.Json(OrderDefinitions.Transition(Command(OrderAction.Cancel, 2, new OrderEventData(Reason: "changed my mind"))))
            .ShouldContain("""{ "sequence" : { "$add" : ["$version", 1] }, "type" : { "$literal" : "Cancelled" }, "at" : NumberLong("1741064767123456"), "data" : { "$literal" : { "reason" : "changed my mind" } } }""");
        Rendered.Json(OrderDefinitions.Transition(Command(OrderAction.Complete, 3, new OrderEventData())))
            .ShouldContain("""{ "sequence" : { "$add" : ["$version", 1] }, "type" : { "$literal" : "Completed" }, "at" : NumberLong("1741064767123456"), "data" : { "$literal" : { } } }""");
    }

    [Fact]
    public void The_customer_index_is_customer_then_newest_first_then_id()
    {
        Rendered.Json(OrderDefinitions.CustomerIndex.Keys).ShouldBe("""{ "customerId" : 1, "createdAt" : -1, "_id" : -1 }""");
        OrderDefinitions.CustomerIndex.Options.Name.ShouldBe("customer_newest_first");
        OrderDefinitions.CustomerIndex.Options.Unique.ShouldBeNull();
    }

    [Fact]
    public void The_key_index_is_one_unique_partial_multikey_index_over_the_keys_of_creates_and_transitions()
    {
        var index = OrderDefinitions.KeyIndex;
        var options = index.Options.ShouldBeOfType<CreateIndexOptions<BsonDocument>>();

        Rendered.Json(index.Keys).ShouldBe("""{ "keys.key" : 1 }""");
        options.Name.ShouldBe("idempotency_keys");
        options.Unique.ShouldBe(true);
        Rendered.Json(options.PartialFilterExpression).ShouldBe("""{ "keys.key" : { "$exists" : true } }""");
    }

    [Fact]
    public void The_schema_is_exactly_these_three_indexes() =>
        OrderDefinitions.Indexes.Select(i => i.Options.Name).ShouldBe(["customer_newest_first", "idempotency_keys", "idempotency_keys_at"]);

    internal static TransitionCommand Command(OrderAction action, int? expectedVersion, OrderEventData? data = null) =>
        new(OrderId, action, expectedVersion, At, data ?? new OrderEventData());
}
