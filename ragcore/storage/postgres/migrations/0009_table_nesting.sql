-- Dimensions that name things only within another, as SQLite's migration 0007: found by
-- each table load in its transaction (storage.table_values.nesting), one row per nested
-- dimension; a table loaded before this migration has none until it is loaded again.

CREATE TABLE table_nesting (
    table_name  TEXT COLLATE "C" NOT NULL,
    column_name TEXT COLLATE "C" NOT NULL,
    within      TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (table_name, column_name)
);
