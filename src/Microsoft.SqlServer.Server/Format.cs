namespace Microsoft.SqlServer.Server;

/// <summary>How a user-defined type is serialized. The values are part of the public contract SqlClient compiles against.</summary>
#pragma warning disable CA1008 // The documented zero member is Unknown, not None: SqlClient compares against these values.
public enum Format
{
    /// <summary>The format is not known.</summary>
    Unknown = 0,

    /// <summary>SQL Server's built-in serialization of blittable fields.</summary>
    Native = 1,

    /// <summary>The type serializes itself through <see cref="IBinarySerialize"/>.</summary>
    UserDefined = 2,
}
#pragma warning restore CA1008
