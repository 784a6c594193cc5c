namespace Microsoft.SqlServer.Server;

/// <summary>
/// Thrown when a type is used as a user-defined type but is not a valid one. SqlClient creates it
/// through <see cref="Create"/>, so that factory must exist with exactly this signature.
/// </summary>
#pragma warning disable CA1032 // The documented type has no public constructors: instances come from Create.
public sealed class InvalidUdtException : SystemException
#pragma warning restore CA1032
{
    private const int UdtErrorHResult = unchecked((int)0x80131937);

    private InvalidUdtException(string message)
        : base(message)
    {
        HResult = UdtErrorHResult;
    }

    /// <summary>
    /// Creates the exception for <paramref name="udtType"/>. <paramref name="resourceReason"/> names the
    /// reason (a resource key in the original assembly); this stand-in has no resources and turns the
    /// known keys into plain text, passing unknown ones through.
    /// </summary>
    public static InvalidUdtException Create(Type udtType, string resourceReason = "SqlUdtReason_NoUdtAttribute")
    {
        ArgumentNullException.ThrowIfNull(udtType);
        var reason = resourceReason switch
        {
            "SqlUdtReason_NoUdtAttribute" => "no UDT attribute",
            null or "" => "unknown",
            _ => resourceReason,
        };
        return new InvalidUdtException($"'{udtType.FullName}' is an invalid user defined type, reason: {reason}.");
    }
}
