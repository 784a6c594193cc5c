using System.Buffers.Binary;

namespace OrderService.Data.MongoDb;

/// <summary>The elements of one BSON document or array, walked over its bytes.</summary>
internal ref struct BsonElements
{
    public const byte Double = 0x01, String = 0x02, Document = 0x03, Array = 0x04, Binary = 0x05, Int32 = 0x10, Int64 =
        0x12, Decimal128 = 0x13;

    private readonly ReadOnlySpan<byte> _bson;
    private readonly int _end;
    private int _position;

    /// <param name="container">One whole document or array, from its length to its closing NUL.</param>
    public BsonElements(ReadOnlySpan<byte> container)
    {
        if (container.Length < 5 || ReadInt32(container) != container.Length || container[^1] != 0)
        {
            throw Malformed("a document's length does not match its bytes");
        }

        _bson = container;
        _end = container.Length - 1;
        _position = 4;
    }

    public byte Type { get; private set; }

    public ReadOnlySpan<byte> Name { get; private set; }

    /// <summary>The value's bytes (a string with its length and NUL, a document or array whole).</summary>
    public ReadOnlySpan<byte> Value { get; private set; }

    /// <summary>Where <see cref="Value"/> starts in the container, so a caller can slice it again later.</summary>
    public int ValueOffset { get; private set; }

    public bool MoveNext()
    {
        if (_position >= _end)
        {
            return false;
        }

        Type = _bson[_position++];
        var nameLength = _bson[_position.._end].IndexOf((byte)0);
        if (nameLength < 0)
        {
            throw Malformed("an element name has no end");
        }

        Name = _bson.Slice(_position, nameLength);
        _position += nameLength + 1;
        var length = ValueLength(_bson[_position.._end], Type);
        ValueOffset = _position;
        Value = _bson.Slice(_position, length);
        _position += length;
        return true;
    }

    public static int ReadInt32(ReadOnlySpan<byte> bytes) => BinaryPrimitives.ReadInt32LittleEndian(bytes);

    public static InvalidDataException Malformed(string what) => new($"A stored order cannot be read as BSON: {what}.");

    private static int ValueLength(ReadOnlySpan<byte> rest, byte type)
    {
        var length = type switch
        {
            Double or Int64 or 0x09 or 0x11 => 8, // double, int64, UTC datetime, timestamp
            Decimal128 => 16,
            Int32 => 4,
            0x07 => 12, // ObjectId
            0x08 => 1, // boolean
            0x06 or 0x0A or 0x7F or 0xFF => 0, // undefined, null, max key, min key
            String or 0x0D or 0x0E => 4 + LengthPrefix(rest), // string, JavaScript code, symbol
            Document or Array or 0x0F => LengthPrefix(rest), // and code with scope: the length includes itself
            Binary => 5 + LengthPrefix(rest),
            0x0C => 4 + LengthPrefix(rest) + 12, // DBPointer: a string, then an ObjectId
            0x0B => CString(rest) + CString(rest[CString(rest)..]), // regular expression: pattern, options
            _ => throw Malformed($"unknown element type 0x{type:x2}"),
        };
        return length <= rest.Length ? length : throw Malformed("an element runs past its document");
    }

    private static int LengthPrefix(ReadOnlySpan<byte> rest) =>
        rest.Length >= 4 && ReadInt32(rest) is var length and >= 0 ? length
            : throw Malformed("an element's length is cut off or negative");

    private static int CString(ReadOnlySpan<byte> rest) =>
        rest.IndexOf((byte)0) is var nul and >= 0 ? nul + 1 : throw Malformed("a C string has no end");
}
