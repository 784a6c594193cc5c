using Microsoft.Extensions.DependencyInjection;
using OrderService.Data.Hosting;
using OrderService.Data.Orders;

namespace OrderService.Data.Payments;

/// <summary>
/// The payment gateway as the stores see it: a decline rolls the pay back, its Idempotency-Key included.
/// </summary>
public interface IPaymentAuthorizer
{
    /// <summary>Null when <paramref name="payment"/> is approved at once; else the decision to await first.</summary>
    PendingAuthorization? Authorize(Guid orderId, OrderEventData payment);
}

/// <summary>The gateway's decision on a held payment: true commits the write, false rolls it back.</summary>
public delegate ValueTask<bool> PendingAuthorization(CancellationToken cancellationToken);

/// <summary>Approves every payment up front: the stores' default when no gateway is registered.</summary>
public sealed class ApproveEveryPayment : IPaymentAuthorizer
{
    public static readonly ApproveEveryPayment Instance = new();

    public PendingAuthorization? Authorize(Guid orderId, OrderEventData payment) => null;
}

public static class PaymentAuthorization
{
    /// <summary>The decision a transition waits for before its commit: only a pay can have one.</summary>
    public static PendingAuthorization? PendingFor(this IPaymentAuthorizer payments, TransitionCommand command) =>
        command.Action == OrderAction.Pay ? payments.Authorize(command.OrderId, command.Data) : null;

    /// <summary>The registered gateway, or <see cref="ApproveEveryPayment"/>.</summary>
    public static IPaymentAuthorizer Payments(this StoreContext context) =>
        context.Services.GetService<IPaymentAuthorizer>() ?? ApproveEveryPayment.Instance;
}
