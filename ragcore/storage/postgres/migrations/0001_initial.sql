-- The initial PostgreSQL schema: the same tables as the SQLite store, with pgvector
-- embeddings and GIN-indexed tsvectors in place of hnswlib and FTS5.
-- The embedding column gets its dimension, and its HNSW index, when the store is first
-- opened with an embedder (PostgresStore._ensure_vector_index).

CREATE EXTENSION IF NOT EXISTS vector;

CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
-- Bumped in the same transaction as every write or delete: caches key on it.
INSERT INTO meta(key, value) VALUES ('data_version', '0');

CREATE TABLE knowledge_bases (
    name       TEXT PRIMARY KEY,
    created_at TEXT NOT NULL
);

CREATE TABLE documents (
    id             TEXT COLLATE "C" PRIMARY KEY,  -- ordered bytewise, as in SQLite
    knowledge_base TEXT NOT NULL REFERENCES knowledge_bases(name),
    source         TEXT NOT NULL DEFAULT '',
    title          TEXT NOT NULL DEFAULT '',
    doc_type       TEXT NOT NULL DEFAULT 'document',
    authority      INTEGER NOT NULL CHECK (authority BETWEEN 1 AND 5),
    updated_at     DATE,
    version        INTEGER NOT NULL CHECK (version >= 1),
    supersedes     TEXT,
    checksum       TEXT NOT NULL,
    ingested_at    TEXT NOT NULL,                -- ISO timestamp, UTC (as in SQLite: page tokens)
    metadata       JSONB NOT NULL DEFAULT '{}',
    text           TEXT NOT NULL,
    -- Document-level keyword search: title weighted A, whole text D.
    tsv            TSVECTOR GENERATED ALWAYS AS (
        setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', text), 'D')
    ) STORED
);
CREATE INDEX documents_kb ON documents(knowledge_base);
CREATE INDEX documents_supersedes ON documents(supersedes);
CREATE INDEX documents_tsv ON documents USING gin(tsv);

-- Identity ids are never reused (they name chunks in caches and results).
CREATE TABLE chunks (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    document_id     TEXT COLLATE "C" NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    position        INTEGER NOT NULL,
    text            TEXT NOT NULL,
    start_offset    INTEGER NOT NULL,
    end_offset      INTEGER NOT NULL,
    entities        JSONB NOT NULL DEFAULT '[]',
    numeric_density REAL NOT NULL DEFAULT 0,
    embedding       VECTOR NOT NULL,
    -- The chunk's text (D) and its document's title (A), written with the chunk.
    tsv             TSVECTOR NOT NULL,
    UNIQUE (document_id, position)
);
CREATE INDEX chunks_tsv ON chunks USING gin(tsv);
