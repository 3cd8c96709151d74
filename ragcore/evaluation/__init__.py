"""Measuring ragcore: BEIR retrieval figures (``beir``), answering figures on a golden
set (``golden``), and the bundled sample knowledge base (``sample``) they run on."""

from ragcore.evaluation.golden import SAMPLE_GOLDEN
from ragcore.evaluation.sample import SAMPLE_KB, ingest_sample_tables, sample_documents

__all__ = ["SAMPLE_GOLDEN", "SAMPLE_KB", "ingest_sample_tables", "sample_documents"]
