-- The initial schema. SQLite is the source of truth; the vector index is derived.

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);

CREATE TABLE knowledge_bases (
    name       TEXT PRIMARY KEY,
    created_at TEXT NOT NULL
);

CREATE TABLE documents (
    id             TEXT PRIMARY KEY,
    knowledge_base TEXT NOT NULL REFERENCES knowledge_bases(name),
    source         TEXT NOT NULL DEFAULT '',
    title          TEXT NOT NULL DEFAULT '',
    doc_type       TEXT NOT NULL DEFAULT 'document',
    authority      INTEGER NOT NULL CHECK (authority BETWEEN 1 AND 5),
    updated_at     TEXT,                         -- ISO date, NULL when unknown
    version        INTEGER NOT NULL CHECK (version >= 1),
    supersedes     TEXT,                         -- id of the document this one replaces
    checksum       TEXT NOT NULL,                -- sha256 of text + metadata
    ingested_at    TEXT NOT NULL,                -- ISO timestamp, UTC
    metadata       TEXT NOT NULL DEFAULT '{}',   -- JSON object of strings
    text           TEXT NOT NULL
);
CREATE INDEX documents_kb ON documents(knowledge_base);
CREATE INDEX documents_supersedes ON documents(supersedes);

-- AUTOINCREMENT: chunk ids are the vector index labels and must never be reused.
CREATE TABLE chunks (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    document_id     TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    position        INTEGER NOT NULL,
    text            TEXT NOT NULL,
    start_offset    INTEGER NOT NULL,
    end_offset      INTEGER NOT NULL,
    entities        TEXT NOT NULL DEFAULT '[]',  -- JSON array of strings
    numeric_density REAL NOT NULL DEFAULT 0,
    embedding       BLOB NOT NULL,               -- float32, little-endian
    UNIQUE (document_id, position)
);

-- Keyword search: BM25 over the chunk text and its document's title.
CREATE VIRTUAL TABLE chunks_fts USING fts5(title, body, tokenize = 'porter unicode61');

CREATE TRIGGER chunks_fts_insert AFTER INSERT ON chunks BEGIN
    INSERT INTO chunks_fts(rowid, title, body)
    VALUES (new.id, (SELECT title FROM documents WHERE id = new.document_id), new.text);
END;

CREATE TRIGGER chunks_fts_delete AFTER DELETE ON chunks BEGIN
    DELETE FROM chunks_fts WHERE rowid = old.id;
END;

-- Every change to the chunks bumps data_version: the vector index records the
-- version it was saved at, and is rebuilt when the two disagree.
INSERT INTO meta(key, value) VALUES ('data_version', '0');

CREATE TRIGGER chunks_version_insert AFTER INSERT ON chunks BEGIN
    UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'data_version';
END;

CREATE TRIGGER chunks_version_delete AFTER DELETE ON chunks BEGIN
    UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'data_version';
END;
