"""Generation: numbered evidence becomes a cited answer draft.

``ExtractiveGenerator`` (the default, no model) picks evidence sentences;
``OpenAICompatibleGenerator`` asks a local OpenAI-compatible endpoint.
"""

from ragcore.agents.generation.extractive import ExtractiveGenerator, Generator
from ragcore.agents.generation.llm import OpenAICompatibleGenerator

__all__ = ["ExtractiveGenerator", "Generator", "OpenAICompatibleGenerator"]
