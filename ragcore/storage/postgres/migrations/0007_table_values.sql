-- The value index of the loaded tables, as SQLite's migration 0006: every distinct value
-- of every dimension column, kept in each load's transaction (storage.table_values), so
-- reading a question looks up only the values it could name instead of reading every row.
-- Values as text (the column's type says how to read them back), filed under their lookup
-- word and shape; per column and shape, a count and one example. Tables loaded before
-- this migration have no rows here and are read by a scan until they are loaded again.

CREATE TABLE table_values (
    table_name  TEXT COLLATE "C" NOT NULL,
    column_name TEXT COLLATE "C" NOT NULL,
    value       TEXT COLLATE "C" NOT NULL,
    word        TEXT COLLATE "C" NOT NULL,
    shape       TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (table_name, column_name, value)
);
CREATE INDEX table_values_word ON table_values (word, table_name);
CREATE INDEX table_values_shape ON table_values (table_name, column_name, shape);
-- A value's neighbours in one column, in word order: close matches of an unknown value.
CREATE INDEX table_values_near ON table_values (table_name, column_name, word);

CREATE TABLE table_value_shapes (
    table_name  TEXT COLLATE "C" NOT NULL,
    column_name TEXT COLLATE "C" NOT NULL,
    shape       TEXT COLLATE "C" NOT NULL,
    example     TEXT COLLATE "C" NOT NULL,
    count       BIGINT NOT NULL,
    PRIMARY KEY (table_name, column_name, shape)
);
