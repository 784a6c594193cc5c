namespace OrderService.Data.Keys;

/// <summary>
/// A create met its Idempotency-Key already stored, and the key was gone when the store read it next: the clean-up
/// forgot it in between, because it had outlived the retention. Nothing was written, so the resilience layer runs the
/// create again (<see cref="StoreFault.RolledBack"/>), and the rerun finds the key unknown and creates the order: the
/// answer a retry a moment later gets. Without it the create would have answered 422 for a key nobody holds.
/// </summary>
public sealed class IdempotencyKeyForgottenException(string key)
    : Exception($"The Idempotency-Key '{key}' was forgotten by the clean-up while a create that met it read it.");
