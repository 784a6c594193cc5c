using OrderService.Data.MongoDb;
using Shouldly;
using Xunit;

namespace OrderService.Unit.Tests.Concurrency;

/// <summary>The turns that keep concurrent creates of one Idempotency-Key from deadlocking on FerretDB.</summary>
public sealed class OneKeyAtATimeTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    [Fact]
    public async Task A_second_create_with_the_key_waits_until_the_first_hands_on()
    {
        var turns = new OneKeyAtATime();
        var first = await turns.EnterAsync("key-1", Ct);

        var second = turns.EnterAsync("key-1", Ct).AsTask();
        await Task.Delay(50, Ct);
        second.IsCompleted.ShouldBeFalse();

        first.Dispose();
        (await second.WaitAsync(TimeSpan.FromSeconds(5), Ct)).Dispose();
        turns.KeysInUse.ShouldBe(0);
    }

    [Fact]
    public async Task Another_key_never_waits()
    {
        var turns = new OneKeyAtATime();
        using var held = await turns.EnterAsync("key-1", Ct);

        var other = turns.EnterAsync("key-2", Ct).AsTask();

        other.IsCompletedSuccessfully.ShouldBeTrue();
        (await other).Dispose();
    }

    [Fact]
    public async Task A_cancelled_wait_leaves_the_turn_free_for_the_next()
    {
        var turns = new OneKeyAtATime();
        var first = await turns.EnterAsync("key-1", Ct);
        using var cancel = new CancellationTokenSource();

        var abandoned = turns.EnterAsync("key-1", cancel.Token).AsTask();
        await cancel.CancelAsync();
        await Should.ThrowAsync<OperationCanceledException>(abandoned);

        first.Dispose();
        var next = turns.EnterAsync("key-1", Ct).AsTask();
        next.IsCompletedSuccessfully.ShouldBeTrue("the cancelled waiter must not keep the turn");
        (await next).Dispose();
        turns.KeysInUse.ShouldBe(0);
    }
}
