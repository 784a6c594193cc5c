namespace Microsoft.SqlServer.Server;

/// <summary>
/// Marks a class or struct as a SQL Server user-defined type. SqlClient looks for this attribute on every
/// parameter value's type; this service never defines one, but the lookup needs the type to exist.
/// </summary>
[AttributeUsage(AttributeTargets.Class | AttributeTargets.Struct, AllowMultiple = false, Inherited = true)]
public sealed class SqlUserDefinedTypeAttribute : Attribute
{
    /// <summary>The largest serialized size SQL Server accepts for a fixed-size UDT, in bytes.</summary>
    private const int MaxFixedByteSize = 8000;

    private int _maxByteSize;

    public SqlUserDefinedTypeAttribute(Format format)
    {
        if (!Enum.IsDefined(format) || format == Format.Unknown)
        {
            throw new ArgumentOutOfRangeException(nameof(format), format, "A user-defined type is serialized as Native or UserDefined.");
        }

        Format = format;
    }

    /// <summary>The serialization format.</summary>
    public Format Format { get; }

    /// <summary>Whether SQL Server may compare the serialized bytes to order values.</summary>
    public bool IsByteOrdered { get; set; }

    /// <summary>Whether every serialized value has the same length.</summary>
    public bool IsFixedLength { get; set; }

    /// <summary>The serialized size limit in bytes, from -1 (up to 2 GB) to 8,000.</summary>
    public int MaxByteSize
    {
        get => _maxByteSize;
        set
        {
            ArgumentOutOfRangeException.ThrowIfLessThan(value, -1);
            ArgumentOutOfRangeException.ThrowIfGreaterThan(value, MaxFixedByteSize);
            _maxByteSize = value;
        }
    }

    /// <summary>The SQL Server name of the type.</summary>
    public string? Name { get; set; }

    /// <summary>The method SQL Server calls to validate a deserialized value.</summary>
    public string? ValidationMethodName { get; set; }
}
