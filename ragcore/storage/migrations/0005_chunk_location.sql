-- Where a chunk is in its document, for citations a reader can follow (issue 26): the
-- section path, its headings from the outermost in joined with " > " ('' when unknown or
-- before the first heading), and the first and last page the chunk's text is on (1-based;
-- both NULL when the document has no pages). Chunks stored before this migration read as
-- unknown: '' and NULL. Nothing here touches data_version (no chunk is added or removed).

ALTER TABLE chunks ADD COLUMN section TEXT NOT NULL DEFAULT '';
ALTER TABLE chunks ADD COLUMN first_page INTEGER CHECK (first_page >= 1);
ALTER TABLE chunks ADD COLUMN last_page INTEGER
    CHECK ((last_page IS NULL) = (first_page IS NULL) AND last_page >= first_page);
