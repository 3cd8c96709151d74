-- Dimensions that name things only within another (issue 28), found by each table load in
-- its transaction (storage.table_values.nesting): "Utilities" is a line at three sites
-- when most lines are at one site each, so a question grouping by line groups by site
-- too, as a schema's `within` declares. One row per nested dimension; a table loaded
-- before this migration has none until it is loaded again.

CREATE TABLE table_nesting (
    table_name  TEXT NOT NULL,
    column_name TEXT NOT NULL,
    within      TEXT NOT NULL,
    PRIMARY KEY (table_name, column_name)
) WITHOUT ROWID;
