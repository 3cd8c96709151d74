-- Conversations (Engine.ask(..., session=...)), as SQLite's 0003: one row per session and
-- one per turn, shared by every server on this database (a turn recorded through one is
-- the previous turn through another). Nothing here touches the chunks, so a turn does not
-- move data_version.
--
-- scope is the JSON array of the knowledge bases of the caller that opened the session
-- (sorted), NULL for every knowledge base: a caller of another scope may not use it.
-- Times are seconds since the epoch (UTC), double precision as SQLite's REAL; a session
-- idle longer than Config.session_idle_seconds is deleted with its turns on the next
-- session write.

CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    scope      TEXT,
    created_at DOUBLE PRECISION NOT NULL,
    last_used  DOUBLE PRECISION NOT NULL
);
CREATE INDEX sessions_last_used ON sessions(last_used);

CREATE TABLE session_turns (
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    number     INTEGER NOT NULL,               -- 1, 2, ... within the session; never reused
    question   TEXT NOT NULL,                  -- as asked
    rewritten  TEXT NOT NULL,                  -- as searched (the question when no follow-up)
    perception TEXT NOT NULL DEFAULT '{}',     -- JSON summary: action, route, entities, ...
    documents  TEXT NOT NULL DEFAULT '[]',     -- JSON array of the cited document ids
    status     TEXT NOT NULL,                  -- the answer's status
    asked_at   DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (session_id, number)
);
