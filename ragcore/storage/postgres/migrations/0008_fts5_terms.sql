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
INSERT INTO meta(key, value) VALUES ('keyword_terms', 'pending')
    ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value;
