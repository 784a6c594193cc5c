-- OrderService schema for SQL Server, version 3: on Babelfish for PostgreSQL only, orders.customer_id keeps
-- its binary collation but loses its foreign key to customers. Nothing changes on SQL Server.
--
-- Why: customer ids and idempotency keys must compare as ordinal text on every engine ('Alice' and 'alice'
-- are two customers, as on PostgreSQL and SQLite), so both key columns are COLLATE Latin1_General_100_BIN2:
-- exact, and an index seek for an nvarchar parameter. Babelfish checks a foreign key with an internal query
-- that compares the BIN2 column with a value of the server collation, and fails every insert with "could
-- not determine which collation to use for string comparison" (33557097); its server collation can only be
-- a case-insensitive one, so that cannot be configured away. The other choice, the foreign key WITHOUT the
-- binary collation, would make the primary keys case-insensitive on both engines and need an ordinal
-- re-check in every query that compares a key. So on Babelfish the create batch alone guarantees the
-- reference: it inserts the customer (if new) before the order, in the same transaction, and nothing ever
-- deletes a customer.
--
-- Version 3, after the port's version 2 (the numbers are the order every database applies them in). The
-- guard on the constraint makes it safe on a database that already lost the key by hand.
IF CAST(SERVERPROPERTY('babelfish') AS int) = 1 AND OBJECT_ID(N'dbo.fk_orders_customer', N'F') IS NOT NULL
    ALTER TABLE dbo.orders DROP CONSTRAINT fk_orders_customer;
