-- The value index of the loaded tables (issue 28): every distinct value of every dimension
-- column, kept at load in the load's transaction (storage.table_values), so reading a
-- question looks up only the values it could name instead of reading every row.
--
-- table_values: one row per distinct value, as text (the column's type says how to read
-- it back), filed under its lookup word (the first of its words as a question spells
-- them: text.value_words) and its shape ("CP-200" -> "A-9"). table_value_shapes: per
-- column and shape, how many values have it and one of them (an unknown "CP-999" is
-- known for a model by its shape). Tables loaded before this migration have no rows here
-- and are read by a scan until they are loaded again.

CREATE TABLE table_values (
    table_name  TEXT NOT NULL,
    column_name TEXT NOT NULL,
    value       TEXT NOT NULL,
    word        TEXT NOT NULL,
    shape       TEXT NOT NULL,
    PRIMARY KEY (table_name, column_name, value)
) WITHOUT ROWID;
CREATE INDEX table_values_word ON table_values (word, table_name);
CREATE INDEX table_values_shape ON table_values (table_name, column_name, shape);
-- A value's neighbours in one column, in word order: close matches of an unknown value.
CREATE INDEX table_values_near ON table_values (table_name, column_name, word);

CREATE TABLE table_value_shapes (
    table_name  TEXT NOT NULL,
    column_name TEXT NOT NULL,
    shape       TEXT NOT NULL,
    example     TEXT NOT NULL,
    count       INTEGER NOT NULL,
    PRIMARY KEY (table_name, column_name, shape)
) WITHOUT ROWID;
