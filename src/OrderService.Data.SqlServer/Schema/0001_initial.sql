-- OrderService schema for SQL Server, version 1. Applied once, in a transaction, by SqlServerSchema
-- (which records it in schema_versions). One batch, no GO: the applier sends it as one command.
--
-- Column types follow the shared relational schema: datetimeoffset(6) keeps microseconds like every
-- other store; money is decimal(18,2).
--
-- Text columns are nvarchar: Dapper sends .NET strings as nvarchar, and an nvarchar parameter compared
-- with a varchar column converts the COLUMN, which can turn an index seek into a scan.
-- Identifiers that the client or the workflow compares (customer ids, idempotency keys) use a binary
-- collation: SQL Server's default collations are case-insensitive, and 'Alice' and 'alice' must stay two
-- customers (and two keys) as they are on PostgreSQL and SQLite.

CREATE TABLE dbo.customers (
    id          nvarchar(64) COLLATE Latin1_General_100_BIN2 NOT NULL CONSTRAINT pk_customers PRIMARY KEY,
    created_at  datetimeoffset(6) NOT NULL
);

-- Clustered on a bigint identity `seq`, with the UUID id as a unique NONCLUSTERED key. SQL Server sorts
-- uniqueidentifier values by their LAST bytes first (bytes 10-15, then 8-9, ...), while UUIDv7 puts its
-- timestamp in the FIRST bytes: clustered on id, every insert would land at a random page (splits,
-- fragmentation). The identity keeps inserts appending at the end of the clustered index; the id lookups
-- go through the narrow unique index. `seq` also breaks created_at ties when listing newest first.
CREATE TABLE dbo.orders (
    seq          bigint IDENTITY(1,1) NOT NULL CONSTRAINT pk_orders PRIMARY KEY CLUSTERED,
    id           uniqueidentifier NOT NULL CONSTRAINT uq_orders_id UNIQUE NONCLUSTERED,
    customer_id  nvarchar(64) COLLATE Latin1_General_100_BIN2 NOT NULL CONSTRAINT fk_orders_customer REFERENCES dbo.customers (id),
    status       nvarchar(16) NOT NULL CONSTRAINT ck_orders_status CHECK (status IN ('Created', 'Paid', 'Shipped', 'Completed', 'Cancelled')),
    total        decimal(18,2) NOT NULL,
    version      int NOT NULL,
    created_at   datetimeoffset(6) NOT NULL,
    updated_at   datetimeoffset(6) NOT NULL
);

CREATE NONCLUSTERED INDEX ix_orders_customer_created ON dbo.orders (customer_id, created_at DESC) INCLUDE (status);

-- Lines and events cluster on (order_id, ...): an order's rows are read together with one seek. Their
-- inserts land where the order's id sorts, not at the end; the hot path (orders) is the one that appends.
CREATE TABLE dbo.order_lines (
    order_id    uniqueidentifier NOT NULL CONSTRAINT fk_order_lines_order REFERENCES dbo.orders (id),
    line_no     int NOT NULL,
    sku         nvarchar(64) NOT NULL,
    quantity    int NOT NULL,
    unit_price  decimal(18,2) NOT NULL,
    CONSTRAINT pk_order_lines PRIMARY KEY (order_id, line_no)
);

-- [sequence], [type] and [at] are bracketed because they read as keywords to some tools; [key] is reserved.
CREATE TABLE dbo.order_events (
    order_id    uniqueidentifier NOT NULL CONSTRAINT fk_order_events_order REFERENCES dbo.orders (id),
    [sequence]  int NOT NULL,
    [type]      nvarchar(16) NOT NULL,
    [at]        datetimeoffset(6) NOT NULL,
    data        nvarchar(max) NOT NULL CONSTRAINT ck_order_events_data_json CHECK (ISJSON(data) = 1),
    CONSTRAINT pk_order_events PRIMARY KEY (order_id, [sequence])
);

CREATE TABLE dbo.idempotency_keys (
    [key]         nvarchar(128) COLLATE Latin1_General_100_BIN2 NOT NULL CONSTRAINT pk_idempotency_keys PRIMARY KEY,
    request_hash  nvarchar(64) NOT NULL,
    order_id      uniqueidentifier NOT NULL,
    created_at    datetimeoffset(6) NOT NULL
);
