-- Structured data beside documents (ragcore ingest-table), as SQLite's migration 0004:
-- one row per loaded table. The rows themselves are in a table data_<name> (a row_id
-- bigint key in place of SQLite's rowid), replaced with this row in one transaction on
-- every re-ingest. Tables belong to no knowledge base.
--
-- schema is the TOML text of the table's schema file (ragcore.tabular), as loaded;
-- source the data file's name, sha256 its bytes' SHA-256; ingested_at ISO 8601 UTC.

CREATE TABLE table_registry (
    name        TEXT COLLATE "C" PRIMARY KEY,  -- listed bytewise, as in SQLite
    schema      TEXT NOT NULL,
    source      TEXT NOT NULL,
    sha256      TEXT NOT NULL,
    row_count   BIGINT NOT NULL,
    ingested_at TEXT NOT NULL
);
-- Bumped in every table load's transaction (its row lock makes loads from every server
-- take turns): engines sharing the database key their table catalog and caches on it.
INSERT INTO meta(key, value) VALUES ('tables_version', '0');
