using System.ComponentModel;

namespace OrderService.Data.SqlServer;

[Description("Where the SQL Server store reads (with Store:Provider=SqlServer).")]
public sealed class SqlServerStoreOptions
{
    public const string SectionName = "Store:SqlServer";

    [Description("A readable secondary's connection string (an availability group listener with " +
        "ApplicationIntent=ReadOnly): GET by id, the batch and the listing read there; a miss is re-read on the " +
        "primary. Empty: every read goes to the primary.")]
    public string? ReadConnectionString { get; set; }
}
