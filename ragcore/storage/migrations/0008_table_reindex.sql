-- The value index of every table loaded before this migration, rebuilt once (issue 28):
-- 0006 left such a table without table_values (read by a scan) and 0007 without
-- table_nesting, so a store upgraded in place grouped nested dimensions as if none were
-- nested, and said so with confidence. Rather than "none until it is loaded again" (the
-- last sentences of 0006 and 0007, which are applied and so stay as they were), every
-- table registered now is queued here, and the store, when it opens, rebuilds each
-- queued table's value index (table_values, table_value_shapes, table_nesting) in one
-- transaction that also takes it off the queue (storage.table_reindex): a crash mid-way
-- leaves the rest queued for the next open. A load takes its table off the queue too;
-- a table loaded after this migration is never queued.

CREATE TABLE table_reindex (
    table_name TEXT NOT NULL PRIMARY KEY
) WITHOUT ROWID;
INSERT INTO table_reindex (table_name) SELECT name FROM table_registry;
