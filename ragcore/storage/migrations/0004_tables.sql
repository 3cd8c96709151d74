-- Structured data beside documents (ragcore ingest-table): one row per loaded table. The
-- rows themselves are in a typed STRICT table data_<name>, replaced with this row in one
-- transaction on every re-ingest. Tables belong to no knowledge base.
--
-- schema is the TOML text of the table's schema file (ragcore.tabular), as loaded;
-- source the data file's name, sha256 its bytes' SHA-256; ingested_at ISO 8601 UTC.

CREATE TABLE table_registry (
    name        TEXT PRIMARY KEY,
    schema      TEXT NOT NULL,
    source      TEXT NOT NULL,
    sha256      TEXT NOT NULL,
    row_count   INTEGER NOT NULL,
    ingested_at TEXT NOT NULL
);
