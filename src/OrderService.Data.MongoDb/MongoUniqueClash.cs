using MongoDB.Driver;

namespace OrderService.Data.MongoDb;

/// <summary>
/// A write met a unique index (the order id or an Idempotency-Key another order holds). MongoDB says so with
/// DuplicateKey (11000): a write error on insert, a command error on findAndModify. FerretDB on DocumentDB enforces a
/// unique index as a PostgreSQL exclusion constraint, and a clash inside findAndModify comes back in PostgreSQL's own
/// words: InternalError (code 1), "conflicting key value violates exclusion constraint "…"" (its plain inserts and
/// updates give 11000). That answer is recognised narrowly, by code AND the start of the message: any other code 1
/// stays what it is, an error the store cannot classify. The store's writes can only clash on the key index (an
/// order's id never changes), and the read that follows a clash finds the holder or fails loudly, so a misread clash
/// can never answer a wrong replay.
/// </summary>
public static class MongoUniqueClash
{
    public const int DuplicateKey = 11000;

    /// <summary>The code FerretDB gives an error with no MongoDB twin.</summary>
    public const int InternalError = 1;

    /// <summary>How PostgreSQL's exclusion_violation (23P01) message starts, as FerretDB passes it on.</summary>
    public const string ExclusionViolation = "conflicting key value violates exclusion constraint";

    public static bool Is(MongoException exception) => exception switch
    {
        MongoCommandException command => command.Code == DuplicateKey || IsExclusionViolation(command.Code, command.ErrorMessage),
        MongoWriteException write => write.WriteError?.Category == ServerErrorCategory.DuplicateKey,
        _ => false,
    };

    /// <summary>FerretDB's unique clash: code 1 with PostgreSQL's exclusion-constraint message, nothing looser.</summary>
    public static bool IsExclusionViolation(int code, string? message) =>
        code == InternalError && message is not null && message.StartsWith(ExclusionViolation, StringComparison.Ordinal);
}
