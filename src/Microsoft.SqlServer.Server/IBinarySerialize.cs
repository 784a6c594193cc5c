namespace Microsoft.SqlServer.Server;

/// <summary>Implemented by user-defined types with <see cref="Format.UserDefined"/> serialization.</summary>
public interface IBinarySerialize
{
    /// <summary>Fills this instance from its binary form.</summary>
    void Read(BinaryReader r);

    /// <summary>Writes this instance in its binary form.</summary>
    void Write(BinaryWriter w);
}
