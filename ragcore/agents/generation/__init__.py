"""Generation: numbered evidence becomes a cited answer draft.

``ExtractiveGenerator`` (the default, no second model) picks evidence sentences, reading
their closeness in meaning to the question from an embedder when it is given one
(``similarity.QuestionSimilarity``; the engine gives none, see ``Engine``);
``OpenAICompatibleGenerator`` asks a local OpenAI-compatible endpoint. Both cite the
evidence by its retrieval number; ``numbering.renumber`` then numbers the citations of
either 1..n in order of first use (the answering loop does it before validation).
"""

from ragcore.agents.generation.extractive import ExtractiveGenerator, Generator
from ragcore.agents.generation.llm import OpenAICompatibleGenerator

__all__ = ["ExtractiveGenerator", "Generator", "OpenAICompatibleGenerator"]
