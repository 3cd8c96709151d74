-- Document-level keyword search: BM25 over a document's title and its whole text, beside
-- the chunk-level chunks_fts. Hybrid search fuses it in as a document signal.
--
-- Each row's rowid is the id of the document's first chunk (position 0). Chunk ids are
-- stable (AUTOINCREMENT, never reused, unchanged by VACUUM), unlike the implicit rowid of
-- documents, and a document always has a first chunk. So the row follows that chunk:
-- written by its insert trigger, removed by its delete trigger, in the same transaction
-- as the chunks themselves; an update (chunks deleted, document replaced, chunks
-- inserted) and a delete (chunks cascade) keep it in step the way chunks_fts is kept.

CREATE VIRTUAL TABLE documents_fts USING fts5(title, body, tokenize = 'porter unicode61');

CREATE TRIGGER documents_fts_insert AFTER INSERT ON chunks WHEN new.position = 0 BEGIN
    INSERT INTO documents_fts(rowid, title, body)
    SELECT new.id, d.title, d.text FROM documents d WHERE d.id = new.document_id;
END;

CREATE TRIGGER documents_fts_delete AFTER DELETE ON chunks WHEN old.position = 0 BEGIN
    DELETE FROM documents_fts WHERE rowid = old.id;
END;

-- Stores made before this migration: index the documents they already hold.
INSERT INTO documents_fts(rowid, title, body)
SELECT c.id, d.title, d.text FROM chunks c JOIN documents d ON d.id = c.document_id
WHERE c.position = 0;
