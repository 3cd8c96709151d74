"""From files to stored chunks: ``loaders`` read files into Documents, ``chunking`` cuts
them within the embedder's token budget, ``pipeline`` embeds and commits them in groups."""
