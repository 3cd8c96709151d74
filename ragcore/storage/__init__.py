"""The source of truth and its index: SQLite (WAL, FTS5, numbered migrations) in
``store``, search ``filters``, and the hnswlib vector index kept in step with it."""
