namespace OrderService.Data.SqlServer;

/// <summary>The statements <see cref="SqlServerSchema"/> sends besides the scripts.</summary>
public static class SqlServerSchemaSql
{
    /// <summary>SQL Server error: "Database 'x' already exists".</summary>
    public const int DatabaseAlreadyExists = 1801;

    /// <summary>CREATE DATABASE takes no parameters, so the name goes through QUOTENAME inside dynamic SQL.</summary>
    public const string CreateDatabaseIfMissing = """
        IF DB_ID(@database) IS NULL
        BEGIN
            DECLARE @create nvarchar(300) = N'CREATE DATABASE ' + QUOTENAME(@database);
            EXEC sp_executesql @create;
        END
        """;

    /// <summary>Held until the transaction ends: concurrent start-ups apply the scripts one after another.</summary>
    public const string AcquireLock = """
        DECLARE @result int;
        EXEC @result = sp_getapplock @Resource = N'OrderService.Schema', @LockMode = N'Exclusive',
            @LockOwner = N'Transaction', @LockTimeout = 60000;
        IF @result < 0 THROW 50001, N'Could not acquire the schema lock.', 1;
        """;

    public const string CreateVersionsTable = """
        IF OBJECT_ID(N'dbo.schema_versions', N'U') IS NULL
            CREATE TABLE dbo.schema_versions (
                version     int NOT NULL CONSTRAINT pk_schema_versions PRIMARY KEY,
                applied_at  datetimeoffset(6) NOT NULL
            );
        """;

    public const string AppliedVersions = "SELECT version FROM dbo.schema_versions;";

    public const string RecordVersion =
        "INSERT INTO dbo.schema_versions (version, applied_at) VALUES (@version, SYSUTCDATETIME());";
}
