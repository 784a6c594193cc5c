using MongoDB.Driver;

namespace OrderService.Data.MongoDb;

public static class MongoUniqueClash
{
    public const int DuplicateKey = 11000;

    /// <summary>The code FerretDB gives an error with no MongoDB twin.</summary>
    public const int InternalError = 1;

    /// <summary>How PostgreSQL's exclusion_violation (23P01) message starts, as FerretDB passes it on.</summary>
    public const string ExclusionViolation = "conflicting key value violates exclusion constraint";

    public static bool Is(MongoException exception) => exception switch
    {
        // FerretDB's clash: code 1 with PostgreSQL's exclusion-constraint message, nothing looser.
        MongoCommandException command => command.Code == DuplicateKey
            || (command.Code == InternalError
                && command.ErrorMessage?.StartsWith(ExclusionViolation, StringComparison.Ordinal) == true),
        MongoWriteException write => write.WriteError?.Category == ServerErrorCategory.DuplicateKey,
        _ => false,
    };
}
