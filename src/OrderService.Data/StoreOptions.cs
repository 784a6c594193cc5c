using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using Microsoft.Extensions.Options;

namespace OrderService.Data;

public enum StoreProvider
{
    Sqlite,
    PostgreSql,
    SqlServer,

    /// <summary>MongoDB.Driver: one document per order, whatever Store:Layout says.</summary>
    MongoDb,
}

public enum StoreLayout
{
    Relational,

    Document,
}

public enum UnitOfWork
{
    PerRequest,

    PerCall,
}

public enum WriteIsolation
{
    ReadCommitted,
    RepeatableRead,
    Serializable,
}

public enum ReadIsolation
{
    ReadCommitted,

    ReadUncommitted,
}

public enum BatchFilter
{
    Json,

    InList,
}

[Description("Which store, which layout, and the reference study's switches.")]
public sealed class StoreOptions : IValidatableObject
{
    public const string SectionName = "Store";

    [Description("The database engine that stores the orders.")]
    public StoreProvider Provider { get; set; } = StoreProvider.Sqlite;

    [Description("Relational: tables for orders, lines and events; Document: one JSON document per order with its " +
        "events embedded (MongoDB is always Document; SqlServer has Relational only).")]
    [EnumDataType(typeof(StoreLayout))]
    public StoreLayout Layout { get; set; } = StoreLayout.Relational;

    [Description("PerRequest: one connection and transaction span the read, the status update and the event insert; " +
        "PerCall: every repository call opens its own connection and commits on its own.")]
    [EnumDataType(typeof(UnitOfWork))]
    public UnitOfWork UnitOfWork { get; set; } = UnitOfWork.PerRequest;

    [Description("The isolation level of the relational layout's write transactions. The document layout writes " +
        "each step in one statement at the engine's default level; there a level other than ReadCommitted only " +
        "turns group commit off.")]
    [EnumDataType(typeof(WriteIsolation))]
    public WriteIsolation WriteIsolation { get; set; } = WriteIsolation.ReadCommitted;

    [Description("The isolation of the reads: ReadUncommitted is NOLOCK on SQL Server, a shared cache with " +
        "read_uncommitted on SQLite, and ReadCommitted on PostgreSQL.")]
    [EnumDataType(typeof(ReadIsolation))]
    public ReadIsolation ReadIsolation { get; set; } = ReadIsolation.ReadCommitted;

    [Description("How a batch read passes its ids: Json, one parameter carrying all ids (OPENJSON / uuid[] / " +
        "json_each); InList, one parameter per id, chunked below the driver's limit.")]
    [EnumDataType(typeof(BatchFilter))]
    public BatchFilter BatchFilter { get; set; } = BatchFilter.Json;

    [Description("Seconds a single database command may run before the driver cancels it.")]
    [Range(1, 600)]
    public int CommandTimeoutSeconds { get; set; } = 5;

    [ValidateObjectMembers]
    public IdempotencyKeyOptions IdempotencyKeys { get; set; } = new();

    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (Layout == StoreLayout.Document && Provider == StoreProvider.SqlServer)
        {
            yield return new ValidationResult("Invalid setting Store:Layout = \"Document\"; allowed: Relational with " +
                "Store:Provider=SqlServer (the document layout needs PostgreSql or Sqlite).", [nameof(Layout)]);
        }
    }
}

/// <summary>Checks <see cref="StoreOptions"/> and its nested sections against their data annotations.</summary>
[OptionsValidator]
public sealed partial class StoreOptionsValidator : IValidateOptions<StoreOptions>;
