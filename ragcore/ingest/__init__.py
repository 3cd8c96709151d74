"""From files to stored chunks: ``formats`` reads each file format (PDF, DOCX, ODT,
Markdown, HTML, text, JSONL) into Documents with their section and page spans,
``loaders`` walks folders (ids from relative paths, every invalid file reported at
once), ``chunking`` cuts documents within the embedder's token budget (each chunk with
its section path and pages), ``pipeline`` embeds and commits them in groups."""
