namespace OrderService.Data.Keys;

/// <summary>A create's stored key was gone when read again: nothing was written, so the create is rerun.</summary>
public sealed class IdempotencyKeyForgottenException(string key)
    : Exception($"The Idempotency-Key '{key}' was forgotten by the clean-up while a create that met it read it.");
