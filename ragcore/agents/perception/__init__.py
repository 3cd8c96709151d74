"""Perception: what a question asks for, read by rules and spaCy NER, without an LLM.

``rules`` loads the rules file, ``time`` reads time expressions, ``nlp`` loads spaCy's
NER, and ``agent`` puts them together in ``PerceptionAgent.run(question) -> Perception``.
"""

from ragcore.agents.perception.agent import (
    MAX_QUESTION_CHARS,
    Constraints,
    Entity,
    Perception,
    PerceptionAgent,
)
from ragcore.agents.perception.time import TimeConstraint

__all__ = [
    "MAX_QUESTION_CHARS",
    "Constraints",
    "Entity",
    "Perception",
    "PerceptionAgent",
    "TimeConstraint",
]
