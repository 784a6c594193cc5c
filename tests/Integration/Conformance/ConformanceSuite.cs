using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Xunit;

namespace OrderService.Integration.Tests.Conformance;

/// <summary>
/// THE conformance suite: the whole HTTP contract of docs/api.md plus the store port, run against
/// one store fixture. A store joins by deriving one empty class from this (see Stores/); the tests
/// themselves never name a store. Split over ConformanceSuite.*.cs by topic.
/// </summary>
public abstract partial class ConformanceSuite<TStore> : IClassFixture<TStore>, IAsyncLifetime
    where TStore : StoreFixture
{
    protected ConformanceSuite(TStore store)
    {
        Store = store;

        // A store that cannot run here (SQL Server without ORDERS_TEST_SQLSERVER) reports every test as skipped, with the reason.
        if (store.UnavailableReason is { } reason)
        {
            Assert.Skip(reason);
        }
    }

    protected TStore Store { get; }

    protected ServiceUnderTest Service { get; private set; } = null!;

    protected OrderApi Api => Service.Api;

    protected static CancellationToken Ct => TestContext.Current.CancellationToken;

    public async ValueTask InitializeAsync() => Service = await Store.DefaultAsync();

    /// <summary>A test that reuses a key on another order: it cannot hold where keys are unique per order.</summary>
    protected void SkipWhenKeysAreUniquePerOrder()
    {
        if (Store.KeysUniquePerOrder is { } reason)
        {
            Assert.Skip(reason);
        }
    }

    public ValueTask DisposeAsync()
    {
        GC.SuppressFinalize(this);
        return ValueTask.CompletedTask;
    }

    // The core behaviours, once with the default switches (the switch matrix repeats them per combination).
    [Fact]
    public Task Workflow_create_pay_ship_complete_appends_one_event_per_step() => CoreScenarios.Workflow_create_pay_ship_complete_appends_one_event_per_step(Api);

    [Fact]
    public Task Cancel_is_legal_from_Created_and_Paid_only() => CoreScenarios.Cancel_is_legal_from_Created_and_Paid_only(Api);

    [Fact]
    public Task Illegal_transitions_get_409_and_change_nothing() => CoreScenarios.Illegal_transitions_get_409_and_change_nothing(Api);

    [Fact]
    public Task If_Match_with_a_stale_version_gets_409_and_a_current_one_succeeds() => CoreScenarios.If_Match_with_a_stale_version_gets_409_and_a_current_one_succeeds(Api);

    [Fact]
    public Task Fifty_parallel_pays_of_one_order_have_exactly_one_winner() => CoreScenarios.Fifty_parallel_pays_of_one_order_have_exactly_one_winner(Api);

    [Fact]
    public Task Parallel_mixed_transitions_leave_a_gapless_event_history() => CoreScenarios.Parallel_mixed_transitions_leave_a_gapless_event_history(Api);

    [Fact]
    public Task Same_Idempotency_Key_and_body_returns_the_first_order_and_a_different_body_gets_422() => CoreScenarios.Same_Idempotency_Key_and_body_returns_the_first_order_and_a_different_body_gets_422(Api);

    [Fact]
    public Task Concurrent_creates_with_one_Idempotency_Key_make_one_order() => CoreScenarios.Concurrent_creates_with_one_Idempotency_Key_make_one_order(Api);

    [Fact]
    public Task Batch_returns_each_found_order_once() => CoreScenarios.Batch_returns_each_found_order_once(Api);

    [Fact]
    public Task Customer_listing_is_newest_first_and_honours_status_and_limit() => CoreScenarios.Customer_listing_is_newest_first_and_honours_status_and_limit(Api);

    [Fact]
    public Task An_unknown_order_is_404_on_every_endpoint() => CoreScenarios.An_unknown_order_is_404_on_every_endpoint(Api);

    [Fact]
    public Task Retried_transitions_with_an_Idempotency_Key_answer_the_order_as_that_step_left_it() => CoreScenarios.Retried_transitions_with_an_Idempotency_Key_answer_the_order_as_that_step_left_it(Api);

    [Fact]
    public Task A_transition_key_names_one_request_and_any_other_gets_422_and_changes_nothing()
    {
        SkipWhenKeysAreUniquePerOrder();
        return CoreScenarios.A_transition_key_names_one_request_and_any_other_gets_422_and_changes_nothing(Api);
    }

    [Fact]
    public Task Concurrent_retries_of_one_keyed_transition_append_one_event_and_all_answer_200() => CoreScenarios.Concurrent_retries_of_one_keyed_transition_append_one_event_and_all_answer_200(Api);

    [Fact]
    public Task Customer_listing_pages_follow_Link_next_to_every_order_exactly_once() => CoreScenarios.Customer_listing_pages_follow_Link_next_to_every_order_exactly_once(Api);
}
