"""Words that say the same thing in maintenance and safety texts: an answer that
paraphrases its source ("taken out of service straight away and the result written
down" for "withdrawn from service immediately and the result recorded") uses them.

Only words whose sense does not change with the machine they are said of: "check" and
"inspect" are one, "test" is not; "replace" and "renew" are one, "change" (of a figure)
is not. Each group gets one key that ``families`` adds to its words' keys.
"""

from __future__ import annotations

from ragcore.text.terms import terms

_GROUPS = (
    "stop stops stopped stopping halt halts halted shut shuts cease ceases ceased",
    "immediately promptly instantly",
    "record records recorded log logs logged document documented",
    "withdraw withdraws withdrawn remove removes removed",
    "smallest lowest least minimum",
    "largest highest greatest biggest maximum",
    "tilt tilts tilted tip tipped lean leaned leant incline inclined",
    "completely entirely fully totally wholly",
    "notify notifies notified inform informs informed tell tells told",
    "permit permits permitted allow allows allowed",
    "prohibit prohibits prohibited forbid forbids forbidden ban bans banned",
    "begin begins start starts started commence commences commenced",
    "finish finishes finished end ends ended",
    "install installs installed fit fits fitted mount mounts mounted",
    "operate operates operated function functions",
    "fail fails failed malfunction malfunctions",
    "return returns returned recover recovers recovered restore restores restored",
    "staff personnel worker workers employee employees",
    "quick quickly fast rapid rapidly",
    "reach reaches reached attain attains attained",
    "replace replaces replaced renew renews renewed exchange exchanged swap swapped",
    "inspect inspects inspected examine examines examined check checks checked "
    "verify verifies verified",
    "clean cleans cleaned wash washes washed",
    "drop drops dropped fall falls fell",
    "try tries tried attempt attempts attempted",
    "result results outcome outcomes",
    "new fresh",
    "spot spots point points place places position positions location locations",
    "people person persons occupant occupants",
    "round rounds set sets series batch batches",
)

SYNONYM_KEYS: dict[str, str] = {
    term: f"~{i}" for i, group in enumerate(_GROUPS) for term in terms(group)
}
"""Each stemmed word of a group and its group's key."""
