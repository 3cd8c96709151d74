-- The value index of every table loaded before this migration, rebuilt once, as SQLite's
-- migration 0008: 0007 left such a table without table_values and 0009 without
-- table_nesting ("none until it is loaded again", which no longer holds). Every table
-- registered now is queued here; the store, when it opens, rebuilds each queued table's
-- value index in one transaction that also takes it off the queue
-- (storage.postgres.table_reindex). A table loaded after this migration is never queued.

CREATE TABLE table_reindex (
    table_name TEXT COLLATE "C" NOT NULL PRIMARY KEY
);
INSERT INTO table_reindex (table_name) SELECT name FROM table_registry;
