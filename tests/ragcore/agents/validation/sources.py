"""Evidence several of the validation tests cite, and the sample knowledge base's
evidence for the tests that check real passages. Re-exports ``handmade``'s helpers, so a
test file here imports from one place."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ragcore/agents

from handmade import PUMP, check, document, evidence, findings, outcome, perceive  # noqa: E402

from ragcore.agents.evidence import Draft, Evidence, split_statements  # noqa: E402
from ragcore.agents.validation import Validator  # noqa: E402
from ragcore.storage.filters import SearchFilters  # noqa: E402

__all__ = [
    "PUMP",
    "check",
    "document",
    "evidence",
    "findings",
    "outcome",
    "perceive",
    "FILTER",
    "DRYERS",
    "HARNESS_CODES",
    "WASHERS",
    "TC40",
    "BROCHURE",
    "FLOW",
    "evidence_of",
    "draft",
    "sample_validator",
    "COMPARE",
]


# -- evidence written by hand ----------------------------------------------------------------
FILTER = [
    evidence(
        1,
        "Renew the ZT-9 intake filter element every 400 h of operation.",
        document("zt9", "ZT-9 blower manual"),
    )
]

# -- comparisons ---------------------------------------------------------------------------
DRYERS = [
    evidence(
        1,
        "The HD-2 dries a load in 40 min, the HD-5 in 25 min.",
        document("hd", "HD dryer range brochure"),
    )
]

HARNESS_CODES = [
    evidence(1, "The 2024 Code: inspect the harness monthly.", document("c24", "Code 2024")),
    evidence(2, "The 2019 Code: inspect the harness quarterly.", document("c19", "Code 2019")),
]

WASHERS = [
    evidence(
        1,
        "## WX-55 technical data\n\n- Drum volume: 550 L\n- Maximum spin speed: 950 rpm\n"
        "- Water consumption: 9.0 L per kg\n\n## WX-80 technical data\n\n- Rated load: 80 kg "
        "dry linen\n- Drum volume: 800 L\n- Maximum spin speed: 850 rpm\n"
        "- Water consumption: 8.5 L per kg",
        document("manual-wx", "WX-55 and WX-80 Washer-Extractors Manual"),
    )
]

TC40 = [
    evidence(
        1,
        "## Technical data\n- Maximum set temperature: 95 °C\n- Heater power: 6 kW\n"
        "- Direct cooling capacity: 18 kW at 70 °C\n\n## Fault codes\n- E07 – Safety "
        "thermostat tripped. Cool below 100 °C and reset manually.",
        document("manual-tc40", "TC-40 Mould Temperature Controller Manual"),
    )
]

# -- wrong entity --------------------------------------------------------------------------
BROCHURE = [
    evidence(
        1,
        "The PX-35 delivers 780 L/min, compared with 450 L/min for the PX-20.",
        document("brochure-px", "PX series brochure"),
    )
]

FLOW = "What flow does the PX-20 deliver?"


# -- the sample knowledge base ------------------------------------------------------------
def evidence_of(engine, *document_ids: str, query: str) -> list[Evidence]:
    """The best chunk of each document for ``query``, numbered in the order given."""
    out = []
    for doc_id in document_ids:
        hits = engine.search(query, k=50, filters=SearchFilters())
        hit = next(h for h in hits if h.document_id == doc_id)
        out.append(Evidence(len(out) + 1, hit, hit.score, 0.5))
    return out


def draft(text: str) -> Draft:
    return Draft(text, split_statements(text), "test")


def sample_validator(engine) -> Validator:
    """A validator that looks documents up in ``engine``'s store."""
    return Validator(documents=engine.store.documents)


COMPARE = "Which pump delivers more flow, CP-200 or CP-350?"
