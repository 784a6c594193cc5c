using System.Net;
using OrderService.Integration.Tests.Conformance.Infrastructure;
using OrderService.Testing;
using Shouldly;
using Xunit;

namespace OrderService.Integration.Tests.Conformance;

/// <summary>
/// The core behaviours of the conformance suite for the pairwise combinations of the switches
/// (UnitOfWork x WriteIsolation x ReadIsolation x BatchFilter, <see cref="SwitchSet.Pairwise"/>): each combination
/// gets a host and a database of its own, kept for the class. The full suite (validation, documents, faults) runs
/// once per store with the defaults; what the switches can change is what is repeated here.
/// A derived class may hide <see cref="Switches"/> to run fewer combinations (a layout that ignores some switches).
/// </summary>
public abstract class SwitchMatrixSuite<TStore> : IClassFixture<TStore>
    where TStore : StoreFixture
{
    protected SwitchMatrixSuite(TStore store)
    {
        Store = store;
        if (store.UnavailableReason is { } reason)
        {
            Assert.Skip(reason);
        }
    }

    // Static on the generic base on purpose: MemberData resolves it on the concrete class, which may hide it.
#pragma warning disable CA1000
    public static TheoryData<string> Switches => new(SwitchSet.Pairwise.Select(s => s.Key));
#pragma warning restore CA1000

    protected TStore Store { get; }

    private async Task<OrderApi> ApiAsync(string switches) => (await ServiceAsync(switches)).Api;

    private Task<ServiceUnderTest> ServiceAsync(string switches) => Store.ServiceAsync(SwitchSet.Parse(switches));

    [Theory]
    [MemberData(nameof(Switches))]
    public async Task Workflow_create_pay_ship_complete_appends_one_event_per_step(string switches) =>
        await CoreScenarios.Workflow_create_pay_ship_complete_appends_one_event_per_step(await ApiAsync(switches));

    [Theory]
    [MemberData(nameof(Switches))]
    public async Task Cancel_is_legal_from_Created_and_Paid_only(string switches) =>
        await CoreScenarios.Cancel_is_legal_from_Created_and_Paid_only(await ApiAsync(switches));

    [Theory]
    [MemberData(nameof(Switches))]
    public async Task Illegal_transitions_get_409_and_change_nothing(string switches) =>
        await CoreScenarios.Illegal_transitions_get_409_and_change_nothing(await ApiAsync(switches));

    [Theory]
    [MemberData(nameof(Switches))]
    public async Task If_Match_with_a_stale_version_gets_409_and_a_current_one_succeeds(string switches) =>
        await CoreScenarios.If_Match_with_a_stale_version_gets_409_and_a_current_one_succeeds(await ApiAsync(switches));

    [Theory]
    [MemberData(nameof(Switches))]
    public async Task Fifty_parallel_pays_of_one_order_have_exactly_one_winner(string switches) =>
        await CoreScenarios.Fifty_parallel_pays_of_one_order_have_exactly_one_winner(await ApiAsync(switches));

    [Theory]
    [MemberData(nameof(Switches))]
    public async Task Parallel_mixed_transitions_leave_a_gapless_event_history(string switches) =>
        await CoreScenarios.Parallel_mixed_transitions_leave_a_gapless_event_history(await ApiAsync(switches));

    [Theory]
    [MemberData(nameof(Switches))]
    public async Task Same_Idempotency_Key_and_body_returns_the_first_order_and_a_different_body_gets_422(string switches) =>
        await CoreScenarios.Same_Idempotency_Key_and_body_returns_the_first_order_and_a_different_body_gets_422(await ApiAsync(switches));

    [Theory]
    [MemberData(nameof(Switches))]
    public async Task Concurrent_creates_with_one_Idempotency_Key_make_one_order(string switches) =>
        await CoreScenarios.Concurrent_creates_with_one_Idempotency_Key_make_one_order(await ApiAsync(switches));

    [Theory]
    [MemberData(nameof(Switches))]
    public async Task Batch_returns_each_found_order_once(string switches) =>
        await CoreScenarios.Batch_returns_each_found_order_once(await ApiAsync(switches));

    [Theory]
    [MemberData(nameof(Switches))]
    public async Task Customer_listing_is_newest_first_and_honours_status_and_limit(string switches) =>
        await CoreScenarios.Customer_listing_is_newest_first_and_honours_status_and_limit(await ApiAsync(switches));

    [Theory]
    [MemberData(nameof(Switches))]
    public async Task An_unknown_order_is_404_on_every_endpoint(string switches) =>
        await CoreScenarios.An_unknown_order_is_404_on_every_endpoint(await ApiAsync(switches));

    /// <summary>A create is all of its rows under every switch (a write isolation wraps it in a transaction of its own).</summary>
    [Theory]
    [MemberData(nameof(Switches))]
    public async Task A_created_order_has_its_lines_and_its_Created_event_in_the_rows(string switches)
    {
        var service = await ServiceAsync(switches);
        foreach (var key in (string?[])[null, Ids.NewKey()])
        {
            using var response = await service.Api.CreateAsync(Ids.NewCustomer(), [new("SKU-1", 3, 12.34m), new("SKU-2", 1, 0.5m)], key);
            var id = (await OrderApi.ReadOrderAsync(response, HttpStatusCode.Created)).Id;

            var rows = await Store.ReadStoredRowsAsync(service.ConnectionString, id, TestContext.Current.CancellationToken);
            (rows.OrderRow, rows.Lines).ShouldBe((true, 2), $"order {id}: {rows}");
            rows.EventSequences.ShouldBe([1], $"order {id}: {rows}");
        }
    }

    [Theory]
    [MemberData(nameof(Switches))]
    public async Task Retried_transitions_with_an_Idempotency_Key_answer_the_order_as_that_step_left_it(string switches) =>
        await CoreScenarios.Retried_transitions_with_an_Idempotency_Key_answer_the_order_as_that_step_left_it(await ApiAsync(switches));

    [Theory]
    [MemberData(nameof(Switches))]
    public async Task A_transition_key_names_one_request_and_any_other_gets_422_and_changes_nothing(string switches) =>
        await CoreScenarios.A_transition_key_names_one_request_and_any_other_gets_422_and_changes_nothing(await ApiAsync(switches));

    [Theory]
    [MemberData(nameof(Switches))]
    public async Task Concurrent_retries_of_one_keyed_transition_append_one_event_and_all_answer_200(string switches) =>
        await CoreScenarios.Concurrent_retries_of_one_keyed_transition_append_one_event_and_all_answer_200(await ApiAsync(switches));

    [Theory]
    [MemberData(nameof(Switches))]
    public async Task Customer_listing_pages_follow_Link_next_to_every_order_exactly_once(string switches) =>
        await CoreScenarios.Customer_listing_pages_follow_Link_next_to_every_order_exactly_once(await ApiAsync(switches));
}
