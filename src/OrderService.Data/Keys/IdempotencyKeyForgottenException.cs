namespace OrderService.Data.Keys;

/// <summary>A create met its Idempotency-Key already stored, and the key was gone when the store read it
/// next.</summary>
public sealed class IdempotencyKeyForgottenException(string key)
    : Exception($"The Idempotency-Key '{key}' was forgotten by the clean-up while a create that met it read it.");
