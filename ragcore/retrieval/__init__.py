"""Search over the store: keyword (FTS5 BM25), vector (hnswlib) and hybrid, returning
``Hit``s with their document's metadata."""
