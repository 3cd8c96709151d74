-- One ranking on both stores: the keyword index holds FTS5's own terms (the SQLite
-- store's tokenizer, 'porter unicode61', run by SQLite itself: storage.keyword_terms)
-- instead of PostgreSQL's English tsvectors, and BM25 is FTS5's (its IDF, its row
-- length in tokens of title and text, its average over the table). chunk_terms and
-- document_terms keep their columns: lexeme is now an FTS5 term, hits and in_title its
-- instances in title and text and in the title, length the row's FTS5 token count.
--
-- SQL cannot run FTS5's tokenizer, so the terms of stored rows are refilled by ragcore
-- when it opens the store (postgres.keyword.fill_keyword_terms, in one transaction):
-- this migration empties them and marks them pending. The tsvectors and their GIN
-- indexes are no longer read, and are dropped (a write no longer computes them).
--
-- Version 0007 is another change's (table values): the runner applies the migrations
-- it has not applied, in order, whatever the gaps.

DROP INDEX IF EXISTS chunks_tsv;
DROP INDEX IF EXISTS documents_tsv;
ALTER TABLE chunks DROP COLUMN tsv;
ALTER TABLE documents DROP COLUMN tsv;
-- The row's length in FTS5 tokens (title and text): BM25's D, summed for its average.
ALTER TABLE chunks ADD COLUMN terms_length INTEGER;
ALTER TABLE documents ADD COLUMN terms_length INTEGER;
TRUNCATE chunk_terms, document_terms;
-- Each key carries a posting's counts and length, so a search reads a term's postings by
-- an index-only scan of contiguous leaf pages instead of one heap page per posting
-- (measured on SciFact, 6 query terms, 3,905 postings: 29 ms to 1.2 ms).
ALTER TABLE chunk_terms DROP CONSTRAINT chunk_terms_pkey,
    ADD PRIMARY KEY (lexeme, chunk_id) INCLUDE (hits, in_title, length);
ALTER TABLE document_terms DROP CONSTRAINT document_terms_pkey,
    ADD PRIMARY KEY (lexeme, document_id) INCLUDE (hits, in_title, length);
INSERT INTO meta(key, value) VALUES ('keyword_terms', 'pending')
    ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;

-- FTS5's table statistics, kept as FTS5 keeps them: the row count and the total tokens
-- of each keyword-searched table ('chunks': every chunk; 'documents': every document
-- with a first chunk, which is the one whose terms_length is set). BM25's average
-- length is tokens / rows; maintained by the triggers below in the transaction of every
-- write (writers take turns on the data version row already), so a search reads one row
-- instead of summing the table.
CREATE TABLE keyword_totals (
    name   TEXT PRIMARY KEY,
    rows   BIGINT NOT NULL,
    tokens BIGINT NOT NULL
);
INSERT INTO keyword_totals VALUES ('chunks', 0, 0), ('documents', 0, 0);

CREATE FUNCTION keyword_totals_added() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE keyword_totals k SET rows = k.rows + n.rows, tokens = k.tokens + n.tokens
    FROM (SELECT count(*) AS rows, coalesce(sum(terms_length), 0) AS tokens
          FROM added WHERE terms_length IS NOT NULL) n
    WHERE k.name = TG_ARGV[0] AND n.rows > 0;
    RETURN NULL;
END $$;

CREATE FUNCTION keyword_totals_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE keyword_totals k SET rows = k.rows - n.rows, tokens = k.tokens - n.tokens
    FROM (SELECT count(*) AS rows, coalesce(sum(terms_length), 0) AS tokens
          FROM removed WHERE terms_length IS NOT NULL) n
    WHERE k.name = TG_ARGV[0] AND n.rows > 0;
    RETURN NULL;
END $$;

CREATE FUNCTION keyword_totals_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE keyword_totals k SET rows = k.rows + n.rows, tokens = k.tokens + n.tokens
    FROM (SELECT sum((a.terms_length IS NOT NULL)::int - (r.terms_length IS NOT NULL)::int)
                 AS rows,
                 sum(coalesce(a.terms_length, 0) - coalesce(r.terms_length, 0)) AS tokens
          FROM added a JOIN removed r ON r.id = a.id) n
    WHERE k.name = TG_ARGV[0] AND (n.rows <> 0 OR n.tokens <> 0);
    RETURN NULL;
END $$;

CREATE TRIGGER chunks_totals_insert AFTER INSERT ON chunks REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION keyword_totals_added('chunks');
CREATE TRIGGER chunks_totals_delete AFTER DELETE ON chunks REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION keyword_totals_removed('chunks');
CREATE TRIGGER chunks_totals_update AFTER UPDATE ON chunks
    REFERENCING NEW TABLE AS added OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION keyword_totals_changed('chunks');
CREATE TRIGGER documents_totals_insert AFTER INSERT ON documents REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION keyword_totals_added('documents');
CREATE TRIGGER documents_totals_delete AFTER DELETE ON documents
    REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION keyword_totals_removed('documents');
CREATE TRIGGER documents_totals_update AFTER UPDATE ON documents
    REFERENCING NEW TABLE AS added OLD TABLE AS removed
    FOR EACH STATEMENT EXECUTE FUNCTION keyword_totals_changed('documents');
