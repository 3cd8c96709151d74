"""What a question asks: read once, here, so no agent below perception parses it again.

``read_asks(question)`` returns a frozen ``Asks``: the form of the question (a value, yes
or no, a reason, what happens), the measure a how-often / how-long-does-it-take /
how-many question wants, the attributes it asks for (``rules/attributes.toml``), the
noun phrase it is about when the table lists none (its focus: "What is the lift height
of the OH-10?" asks for the lift height), and what the answer is checked against: the
question's terms, content terms, figures, units, codes and subject. Generation and
validation read ``Perception.asks``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ragcore.agents.attributes import Attribute, AttributeTable, Direction, default_attributes
from ragcore.agents.perception.condition import conditions
from ragcore.agents.perception.each import things_each
from ragcore.agents.reading import codes, content_terms, identifiers, term_set, word_pairs
from ragcore.documents import named_identifiers
from ragcore.text.identifiers import CODE_TERM
from ragcore.text.lexicon import WordSet, pattern, words
from ragcore.text.products import named_variants, product_names
from ragcore.text.quantities import (
    attribute_units,
    numbers,
    quantities,
    units_asked,
    units_named,
)
from ragcore.text.terms import STOPWORDS, model_terms, terms
from ragcore.text.units import dimension
from ragcore.types import Action


class QuestionForm(StrEnum):
    """How a question asks: for a value (the default), whether, why, or what happens."""

    VALUE = "value"
    YES_NO = "yes_no"
    WHY = "why"
    WHAT_HAPPENS = "what_happens"


class AnswerType(StrEnum):
    """What kind of answer satisfies the question, whatever its words."""

    FIGURE = "figure"  # a value of an attribute measured in units ("What does it weigh?")
    COUNT = "count"  # "How many knives …?"
    YES_NO = "yes_no"  # "Can the BC-9 drive a DP-24?": yes or no, with the reason
    REASON = "reason"  # "Why was the interval shortened?"
    MEANING = "meaning"  # "What does E4027 mean?"
    PROCEDURE = "procedure"  # "How do I bleed the pump?": the steps
    PART_NUMBER = "part_number"  # "What is the part number of the seal?"
    OPTIONS = "options"  # "What warning times can you pick?": the choices, listed
    CAUSE = "cause"  # "Stepper moves one step only. What's wrong?": the cause
    PURPOSE = "purpose"  # "What is upssched for?": what it does, the thing named
    PLACE = "place"  # "Where must hydraulic oil be stored?": a place or position
    ACTION = "action"  # "What do I do before restarting it?": something to do
    KIND = "kind"  # "Which grease goes in the gearboxes?": one of that kind, named
    AGENT = "agent"  # "Who signs the permit?": who does it
    ANY = "any"  # no kind the question's form fixes


class Switch(StrEnum):
    """The way a question asks a value to switch something: on or off."""

    ON = "on"  # "what phases value turns on auto switching?"
    OFF = "off"  # "which value disables the watchdog?"


class Measure(StrEnum):
    """The measure a question's form asks for, whatever its words."""

    FREQUENCY = "frequency"  # "How often …?": an interval or a frequency
    DURATION = "duration"  # "How long does it take …?": a time
    COUNT = "count"  # "How many knives …?": a bare count, not a measure in a unit


@dataclass(frozen=True)
class Done:
    """What a "how often / how long … be <done>" question says is done to its focus."""

    terms: frozenset[str]
    """The verb phrase's terms, generic words aside ("hydrostatically tested")."""
    how_often: bool
    """Asked how often (else how long)."""
    verb: str
    """The verb phrase as written, for messages."""


@dataclass(frozen=True)
class Focus:
    """The noun phrase a question asks about, read from its form."""

    phrase: str
    """As written ("the lift height")."""
    wanted: frozenset[str]
    """Its distinctive terms: no names, stopwords or generic words ("lift", "height")."""
    amount: bool = False
    """Asked as an amount ("How much refrigerant …?"): a figure in a unit answers it,
    however it names the thing ("4.6 kg of R452A")."""
    holder: bool = False
    """The thing whose amount is asked ("How much does the VM-3000's gearbox hold?"):
    an answer must name it — a capacity of another thing ("the way-lube tank holds
    2.5 litres") is no answer, however well it gives a capacity."""


@dataclass(frozen=True)
class AskedPart:
    """One of several asks a question joins with "and" ("how much oil | and what grade?",
    "How often are lockout devices inspected, | and how often are safety valves
    tested?"): as written, and its distinctive terms (no names, stopwords, generic or
    question words, nor a term the other parts say too)."""

    text: str
    key: frozenset[str]
    attributes: tuple[Attribute, ...] = ()
    """The attributes the part names ("grade"): an answer giving one answers it."""


@dataclass(frozen=True)
class Comparison:
    """The comparative word a question orders by, and how an answer says it."""

    word: str
    direction: Direction
    """Which figure the word usually says is larger ("louder": the higher)."""
    phrase: str | None
    """"is louder", "has more pressure"; None when "more" is about no figure ("more
    often" is about an interval)."""
    difference: bool = False
    """How far apart the figures are is asked too ("how much louder …?",
    ``lexicon.asks_difference``)."""


@dataclass(frozen=True)
class Asks:
    """What a question asks for, and what an answer to it is checked against."""

    form: QuestionForm = QuestionForm.VALUE
    answer_type: AnswerType = AnswerType.ANY
    measure: Measure | None = None
    attributes: tuple[Attribute, ...] = ()
    """The attributes asked for, without those whose word only modifies another noun
    ("pressure vessel", "flow diversion records")."""
    named_attributes: tuple[Attribute, ...] = ()
    """Every attribute the question names a word of."""
    focus: Focus | None = None
    done: Done | None = None
    terms: frozenset[str] = frozenset()
    """All the question's terms."""
    content_terms: frozenset[str] = frozenset()
    """Its terms without figures, units and relation words (see ``reading``)."""
    pairs: tuple[tuple[str, str, str], ...] = ()
    """Adjacent content words ("winding temperature"), as terms and as written."""
    numbers: frozenset[float] = frozenset()
    """Numbers the question supplies ("before 2025"): context, not claims."""
    quantities: frozenset[tuple[float, str]] = frozenset()
    conditions: frozenset[tuple[float, str]] = frozenset()
    """Figures it sets as the condition of what it asks ("rated output at 60 Hz?";
    ``answer_types.condition``): an answer's figures are at that condition."""
    units: tuple[str, ...] = ()
    """Units the question spells ("How many pounds …?", "… in m³/h?")."""
    units_without_figure: tuple[str, ...] = ()
    """Of ``units``, those spelled without a figure: the unit the answer is in ("… in
    m³/h?"), not a condition ("the cable length at 1 Mbps?")."""
    attribute_units: tuple[str, ...] = ()
    """Units its attribute words imply ("louder": dB(A))."""
    codes: frozenset[str] = frozenset()
    """Identifiers it uses as codes ("fault code E-34")."""
    subject: str | None = None
    """Its one identifier that is no code, the subject of statements naming none."""
    identifiers: frozenset[str] = frozenset()
    """Identifiers as documents name them (titles, metadata): "CSM-2018"."""
    code_family: str | None = None
    """The letter of the code it asks for ("Which M code orients the spindle?": "M",
    "What's the G-code for rigid tapping?": "G"): an answer gives a code of it ("M19")."""
    default: bool = False
    """It asks for the value set by default ("What CAN baud rate is it set to by
    default?"): an answer states its value as the default."""
    signals: tuple[str, ...] = ()
    """For a question about what a code or signal means or does ("trip code OC1 — what
    does it mean?", "what happens when the W4 contact is active?", "blinks 3 times"):
    the codes and signal numbers as written; an answer must name each."""
    products: tuple[str, ...] = ()
    """Products and versions named without a model number ("ODrive Pro", "roboRIO",
    "v3.6"; ``text.products``): an answer's sources must name each, or they are a
    sibling's (another product, another revision)."""
    named_terms: tuple[str, ...] = ()
    """Acronyms and keys the question names besides its models, codes, products and
    units ("PTC", "USB", "HOME_SEARCH_VEL", "evcc.yaml"; ``lexicon.named_term``): an
    answer or its sources name each, or the answer is about something else (the NTC
    type, the radio's address)."""
    value_shape: str | None = None
    """The shape of value its head noun asks for ("What port …?": a port;
    ``answer_types.shape``): an answer holds a value of that shape."""
    comparison: Comparison | None = None
    side_by_side: tuple[str, ...] = ()
    """Models the question names side by side, asking the same of each ("What oil do the
    HP-400 and the HP-500 take?"): the answer is about every one."""
    each_of: tuple[str, ...] = ()
    """Things other than models it coordinates and asks the same of each ("hot work and
    confined space - who has to stay on watch for each?"; ``perception.each``): the
    answer says something of every one."""
    judged_against: bool = False
    """A yes/no question whose clause asks whether something stands above or below
    another thing ("the CP-350 is 78 dB(A) right, is that over it?";
    ``lexicon.judged_against``): a figure it states is judged against that thing."""
    choice: bool = False
    """It asks to choose by an order ("Is A louder or quieter than B?", "Which is
    faster?"), so an answer must give figures for both sides."""
    documents: tuple[str, ...] = ()
    """The kinds of document it asks what they say, named as its source ("the manual's
    standard interval", "under the directive": ``lexicon.document_named``), lower case."""
    set_value: tuple[str, float] | None = None
    """The key a question sets and the value it sets it to, asking what that value does
    ("What does leaving HOME_SEARCH_VEL at 0 do?": ("HOME_SEARCH_VEL", 0);
    ``lexicon.sets_value``): an answer names that value, not another of the key's."""
    parts: tuple[AskedPart, ...] = ()
    """The asks it joins with "and" when it joins two or more (``lexicon.asked_parts``),
    each with words of its own; empty for one ask, and for models side by side (those
    are ``side_by_side``): an answer answers each part."""
    designated: tuple[tuple[str, frozenset[str]], ...] = ()
    """The nouns it tells apart by a capital letter ("reservoir B", "systems A and B"),
    each as its term with the letters it names (``designated``): a figure stated for
    another letter of the noun is another thing's."""
    relation: frozenset[str] = frozenset()
    """For a yes/no question, the relation it asks whether holds: the content terms of
    its yes/no clause without the condition it sets (``lexicon.condition_clause``),
    names, products and generic words aside ("Will it start moving again on its own
    once the script sends commands?": start, moving, again, own).
    Empty when the clause leans on the sentences before it for what it asks ("… upsmon
    didn't shut the server down. Is it broken?": fewer than ``OWN_RELATION`` terms);
    ``answer_types.verdict`` reads it."""
    together: bool = False
    """A yes/no question whether two things may go together — mixed, combined, one left
    running while another is used (``lexicon.asks_together``: "can i mix 12v and 24v
    solenoids on one hub?"): a sentence deciding it says how they go together
    (``lexicon.states_together``), not only what each can do."""
    goal: str | None = None
    """For a how-to question, the verb of what the asker wants done, as a term ("How do I
    make the ODrive home itself …?": "home"; ``lexicon.asks_how_to``); for a why question
    about doing something, the verb of what is done ("why would I need to debounce …?";
    ``lexicon.asks_why_doing``); None when it is a
    verb that only says "do it" or find out ("check", ``lexicon.light_goals``) or none is
    read: an answer whose sources never say it
    gives a step for another goal while a source that does was at hand."""
    to_set: bool = False
    """It asks the value to set or enter in a setting ("what value goes in PD164?",
    ``lexicon.asks_to_set``), not its default: an answer giving only the default ("…
    register PD164 (defaults to 38400)") does not say what to set."""
    switch: Switch | None = None
    """For a question asking the value that switches something, the way it asks
    ("what phases value turns on auto switching?": on; ``lexicon.asks_value_that_switches``),
    else None: the value for the other way ("phases: 1 or 3 =
    Automatic switching disabled") is no answer (``answer_types.switch``)."""
    variants: tuple[tuple[str, str], ...] = ()
    """The variants it names, each a name and its number ("Does LinuxCNC 2.9 run on a
    Raspberry Pi 5?": ("LinuxCNC", "2.9"), ("Pi", "5"); ``answer_types.variant``): an
    answer naming the name with other numbers only is about a sibling variant."""
    which: tuple[str, str] | None = None
    """For a question for the one thing of a kind that does something ("Which GS2
    parameter sets the Modbus slave address?"; ``lexicon.asks_which_does``), the kind and
    what it does, as written: an answer names one doing it (``answer_types.which``)."""
    state: str | None = None
    """For a yes/no question whether a thing is in a state ("Is the power input
    protected if …?"; ``lexicon.asks_participle``), the state as a term ("protect"): a
    sentence deciding it says that state or its negation (``answer_types.verdict``)."""
    impersonal: str | None = None
    """For a yes/no question asked of "it" about a whole situation ("does it matter which
    way round the CT is clipped on?", "is it safe to …?"; ``lexicon.asks_impersonal``),
    the word that judges it ("matter", "safe"): "it does not matter" decides it, however
    few of the situation's words it repeats (``answer_types.verdict``)."""
    options: tuple[str, ...] = ()
    """The command-line options it names ("-k", "-R", "--braking-resistor";
    ``lexicon.named_option``), dashes as hyphens: a manual page lists many in one chunk,
    so an answer names one of them itself or stands under a heading that does
    (``answer_types.pinpoint``)."""
    absent: tuple[str, ...] = ()
    """What its condition says is absent ("If I leave LISTEN out of upsd.conf, …?":
    "LISTEN"; ``lexicon.asks_absent``): an answer says what holds when it is absent
    (``answer_types.absence``), not what it does when given."""
    versions: tuple[str, ...] = ()
    """The versions a yes/no question's clause names as its condition ("… an e-Series
    still running PolyScope 5.0?": "5.0"; ``lexicon.gives_version``, not a figure with
    its unit): a sentence deciding it gives a version."""
    states: tuple[str, ...] = ()
    """The things a question sets in a state for what it asks ("what's the AC-110 noise
    with the canopy off?": "canopy"; ``lexicon.state_condition``): an answer, or the
    sentence it is drawn from, names each (``answer_types.condition``)."""
    kind: str | None = None
    """For a question asking which thing of a kind goes somewhere or is used ("Which
    grease goes in the axis 1-3 gearboxes?"; ``lexicon.asks_kind``), the kind as written
    ("grease"): an answer names one of it (``answer_types.kind``)."""
    act: str | None = None
    """For a question asking who does something ("Who signs the permit?";
    ``lexicon.asks_who``), what is done as a term ("sign"): an answer says it, or names
    who by a relative clause (``answer_types.kind``)."""

    @property
    def whether(self) -> bool:
        """Asks whether, why or what happens: not for the attribute its words name."""
        return self.form != QuestionForm.VALUE

    @property
    def spelled_dimensions(self) -> frozenset[str]:
        return frozenset(dimension(u) for u in self.units_without_figure)


# -- the forms -------------------------------------------------------------------------
_YES_NO = re.compile(
    r"^\s*(?:can|could|is|are|was|were|does|do|did|will|would|should|may|must|has|have)\b"
    r"(?![^?]*\bor\b)",  # "Is it higher or lower …?" asks which
    re.IGNORECASE,
)
# A question for a reason ("Why was the interval extended?") asks for no attribute's figure.
# "Where must hydraulic oil be stored?", "Where does the detector go?": a place.
_WHERE = re.compile(r"^\s*where\b", re.IGNORECASE)
_WHY = re.compile(r"^\s*(?:why|how\s+come|for\s+what\s+reason|what\s+is\s+the\s+reason)\b", re.I)
# "What does the TS-400 do once utility power comes back?" asks what happens, not for the
# attribute its clause names.
_WHAT_HAPPENS = re.compile(
    r"^\s*what\s+(?:happens|(?:does|do|did|will|should|must)\b[^?]*\bdo)\b", re.IGNORECASE
)
# A clause break inside the asked sentence: "once moteus is in timeout mode, will it …?",
# "I've only got the grey cable - will the driver work with it?"
_CLAUSES = re.compile(r",\s+|\s[—–-]\s+")
_WH = re.compile(r"^\s*(?:what|which|how|where|when|who|whom|whose|why)\b", re.IGNORECASE)
# How many terms of its own a yes/no clause needs to state a relation: "Is it broken?",
# "Is that a known limit?" ask about the situation the sentences before them describe.
OWN_RELATION = 3
_FORM_PATTERNS = (
    (QuestionForm.YES_NO, _YES_NO),
    (QuestionForm.WHY, _WHY),
    (QuestionForm.WHAT_HAPPENS, _WHAT_HAPPENS),
)

# "How often must the RB-12 gearbox oil be changed?"
_HOW_OFTEN_DONE = re.compile(
    r"^\s*how\s+(?:often|frequently)\s+(?:must|should|does|do|is|are|has|have|did|can)\s+"
    r"(?P<focus>[^?]+?)\s+(?:be|been|get|gets|need|needs)\b",
    re.IGNORECASE,
)
# "How long must examination reports be kept?", "How long is bleed-off locked out …?",
# "Under the current regulation, how long must records be kept?"
_HOW_LONG_DONE = re.compile(
    r"^(?:[^?,]*,\s*)?how\s+(?:long|quickly|soon)\s+"
    r"(?:must|should|does|do|is|are|has|have|did|can|will)\s+(?P<focus>[^?]+?)\s+"
    r"(?:be\s+|been\s+)?(?=\w+(?:ed|en)\b|(?:kept|held|run|left|sent|stored)\b)",
    re.IGNORECASE,
)
_DEFAULT = re.compile(r"\bdefault\b", re.IGNORECASE)
# "How has the default delay changed?" asks for the change, not the default.
_CHANGED = re.compile(r"\b(?:chang(?:e|ed|es|ing)|differ(?:s|ed|ence)?)\b", re.IGNORECASE)
# "Which M code …?", "What's the G-code for …?": a code of one letter's family.
_CODE_FAMILY = re.compile(
    r"^\s*(?i:which|what(?:\x27s|\s+is|\s+are)?(?:\s+the)?)\s+(?P<letter>[A-Z])[- ]?codes?\b"
)
# "How much RAM does a PC need?": an amount of something.
_HOW_MUCH_OF = re.compile(
    r"^\s*how\s+much\s+(?P<focus>[^?]+?)\s+"
    r"(?:does|do|did|can|could|is|are|will|should|must)\s",
    re.IGNORECASE,
)
# "How much does the VM-3000's gearbox hold?": the thing holding (or weighing) the amount.
_HOW_MUCH_DOES = re.compile(
    r"^\s*how\s+much\s+(?:does|do|did|can|could|will|should|must)\s+(?P<focus>[^?]+?)\s+"
    r"(?:hold|contain|take|weigh|carry)\b",
    re.IGNORECASE,
)
# A part of a named thing: "the VM-3000's gearbox", "the gearbox of the VM-3000".
_PART_OF = re.compile(r"\w['’]s\s+\w|\s+of\s+", re.IGNORECASE)
# The forms whose focus is a noun phrase, and where the phrase is.
_FOCUS_FORMS = (
    # "What does the hygiene standard say about residual water in kegs?"
    re.compile(
        r"^\s*what\s+(?:does|do|did)\s+[^?]+?\s+say\s+(?:about|on)\s+(?:the\s+)?"
        r"(?P<focus>[^?]+?)(?:\s+(?:in|of|for|on|at|from)\s[^?]*)?\?",
        re.IGNORECASE,
    ),
    # "What is the lift height of the OH-10?", "What was the lead limit for …"
    re.compile(
        r"^\s*what\s+(?:is|are|was|were)\s+(?:the\s+)?(?P<focus>.+?)\s+"
        r"(?:of|for|on|in|at|under|from)\s",
        re.IGNORECASE,
    ),
    # "What payload can the RB-12 carry?", "What hardness does the WS-50 produce?"
    re.compile(
        r"^\s*what\s+(?!(?:is|are|was|were)\b)(?P<focus>[^?]+?)\s+"
        r"(?:does|do|did|can|could|must|should|will)\s",
        re.IGNORECASE,
    ),
    # "What CAN baud rate is the ODrive set to by default?", "What Max Jitter from the
    # latency test is good enough?" (the qualifier says where, not what)
    # (a noun phrase: "What has to be checked before a casing is opened?" asks for none;
    # a verb is read in lower case, "CAN baud rate" is a noun phrase)
    re.compile(
        r"^\s*what\s+(?!(?-i:is|are|was|were|has|have|had|needs?|must|should|can|could|will"
        r"|would|may|might|shall|does|do|did)\b)(?P<focus>[^?]+?)"  # "CAN baud rate" is none
        r"(?:\s+(?:of|for|on|in|at|under|from|with)\s[^?]*?)?\s+(?:is|are|was|were)\s",
        re.IGNORECASE,
    ),
    # "what do I set the encoder cpr to?": the setting whose value is asked
    re.compile(
        r"^\s*what\s+(?:do|should|must)\s+(?:i|we|you)\s+(?:set|put)\s+(?:the\s+)?"
        r"(?P<focus>[^?]+?)\s+(?:to|at)\s*\?",
        re.IGNORECASE,
    ),
    _HOW_MUCH_OF,
    _HOW_MUCH_DOES,
    # "How many tools does the VMC-600 hold?"
    re.compile(
        r"^\s*how\s+many\s+(?P<focus>[^?]+?)\s+(?:does|do|did|can|could|are|is|were|will)\s",
        re.IGNORECASE,
    ),
    _HOW_OFTEN_DONE,
    _HOW_LONG_DONE,
)
# A question about a code's meaning, an explanation or two things at once is not read
# for a focus: "What is fault E2215 …?" asks what the code means.
_NO_FOCUS = re.compile(
    r"\b(?:and\s+(?:what|how|when|which|why|does|do|is|are|can)|mean|means|happen|should\s+i"
    r"|fault|error|alarm|code|[A-Z]{1,2}\d{2,5})\b",
    re.IGNORECASE,
)
_QUALIFIER = re.compile(
    r"\b(?:under|in|at|on|for|by|per|during|since|after|before|from|of|to|with|within|"
    r"according)\b|[?,]",
    re.IGNORECASE,
)
_HOW_OFTEN = re.compile(r"^\s*how\s+(?:often|frequently)\b", re.IGNORECASE)
_HOW_LONG_TAKES = re.compile(
    r"^\s*how\s+long\s+(?:does|do|did|will|would|should)\b[^?]*\btake", re.IGNORECASE
)
_HOW_MANY = re.compile(r"^\s*how\s+many\s+(?!times\b)", re.IGNORECASE)
# "How much RAM does a PC need?", "…, how much PV surplus does it need?": an amount.
_HOW_MUCH = re.compile(r"\bhow\s+much\b(?!\s+(?:longer|later|sooner|more|less)\b)", re.I)
# "Which …", also after a word that only carries the conversation on ("So which one …").
_WHICH = re.compile(r"^\s*(?:(?:so|and|then|ok|okay|now|but)\W+)?(?:which|whose)\b", re.IGNORECASE)
# "than 3 °C", "than about 100 L/min": a bound, not another side.
_THAN_A_FIGURE = re.compile(
    r"\bthan\s+(?:(?:about|around|approximately|roughly|some|minus)\s+)?[-−]?\d", re.IGNORECASE
)
_MORE_OFTEN = re.compile(r"\b(more|less)\s+(?:often|frequent(?:ly)?)\b", re.IGNORECASE)
# "the AC-75 and the AC-110", "on the AC-75 and on the AC-110" (the preposition repeated),
# "the CV-12 gearbox and the HP-400 …" (a part of the first named after it)
_COORDINATED = re.compile(
    r"(?:\s+(?-i:[a-z][a-z-]*)){0,2}?"
    r"\s*(?:,\s*(?:(?:and|or)\s+)?|(?:and|or|&)\s+)(?:(?:on|for|of|in|at|with)\s+)?"
    r"(?:(?:the|an?)\s+)?",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[a-z0-9]+(?:[-/][a-z0-9]+)*|[^\sa-z0-9]")
# "What does E4027 mean?", "What is the meaning of fault F-21?"
_MEANING = re.compile(
    r"\bwhat\s+(?:does|do|did|is|are)\b[^?]*\b(?:mean|means|meaning|indicate|indicates|signal)\b",
    re.IGNORECASE,
)
# "What is the part number of the seal?", "Which P/N …?", "order number"
_PART_NUMBER = re.compile(
    r"\b(?:part|order|article|catalog(?:ue)?|spare)[\s-]+(?:number|no\.?|#)|\bP/?N\b", re.IGNORECASE
)


# "What low battery warning times can you pick?", "Which modes are supported?", "What
# are the options for …?": the choices on offer, not one value.
_OPTIONS = re.compile(
    r"^\s*(?:what|which)\s+(?:[\w-]+\s+){0,4}?(?:[\w-]+s|options?|choices?|modes?|settings?)\s+"
    r"(?:can|could|may)\s+(?:i|you|we|one)\s+(?:pick|choose|select|set|use)\b"
    r"|^\s*(?:what|which)\s+(?:[\w-]+\s+){0,3}?(?:options|choices|modes|values)\s+"
    r"(?:are|is)\s+(?:there|available|supported|possible)\b"
    r"|^\s*what\s+are\s+the\s+(?:available\s+|possible\s+)?(?:options|choices|modes)\b",
    re.IGNORECASE,
)


def read_asks(
    question: str,
    attributes: AttributeTable | None = None,
    action: Action | None = None,
    models: Sequence[tuple[str, int, int]] = (),
) -> Asks:
    """What ``question`` asks (``attributes``: the attribute table, None for the shipped;
    ``action``: perception's reading of what it asks the system to do; ``models``: the
    model names perception found, with their spans)."""
    table = attributes or default_attributes()
    # "and how many …?", "so why …?": read after the words that only carry the
    # conversation on, blanked so that the models' spans still hold
    if opened := pattern("lexicon", "carried_on").match(question):
        question = " " * opened.end() + question[opened.end() :]
    form = _form(question)
    question_codes = codes(question)
    names = {name for name, _, _ in identifiers(question)} - question_codes
    measure = _measure(question)
    asked = _asked_attributes(question, table)
    answer_type = _answer_type(question, form, measure, asked, action, models)
    comparison, choice = _comparison(question, table), _choice(question, table)
    # "Which pump goes longer between seal changes?" chooses by an order: no kind asked
    ordered = comparison is not None or choice
    kind = _kind(question) if form == QuestionForm.VALUE and not ordered else None
    act = _act(question) if form == QuestionForm.VALUE else None
    if answer_type == AnswerType.ANY and kind:
        answer_type = AnswerType.KIND
    elif answer_type == AnswerType.ANY and act:
        answer_type = AnswerType.AGENT
    signals = _signals(question, answer_type)
    if answer_type == AnswerType.ANY and not signals and _diagnosis(question):
        # "What's wrong?" after a symptom asks for its cause; after a code or a light
        # it asks what the signal says (``signals``), which its meaning answers.
        answer_type = AnswerType.CAUSE
    # "what's the point of X?" asks about X, not about a point
    purpose = _purpose_focus(question)
    focus = purpose if answer_type == AnswerType.PURPOSE and purpose else _focus(question)
    focus = focus or purpose
    to_set = (
        form == QuestionForm.VALUE
        and not _asks_default(question, form)
        and pattern("lexicon", "asks_to_set").search(asked_sentence(question)) is not None
    )
    shape = _value_shape(question)
    return Asks(
        form=form,
        answer_type=answer_type,
        measure=measure,
        attributes=asked,
        named_attributes=table.asked_in(question),
        focus=focus,
        done=_done(question),
        terms=frozenset(terms(question)),
        content_terms=frozenset(content_terms(question)),
        pairs=tuple(word_pairs(question)),
        numbers=frozenset(numbers(question)),
        quantities=frozenset((q.value, q.unit) for q in quantities(question)),
        conditions=conditions(question),
        units=units_named(question),
        units_without_figure=units_asked(question),
        attribute_units=attribute_units(question),
        codes=question_codes,
        subject=next(iter(names)) if len(names) == 1 else None,
        identifiers=named_identifiers(question),
        code_family=_code_family(question),
        default=_asks_default(question, form),
        signals=signals,
        products=product_names(question),
        named_terms=_named_terms(question, focus if form == QuestionForm.VALUE else None),
        value_shape=shape,
        comparison=comparison,
        side_by_side=side_by_side(question, models),
        each_of=things_each(question),
        judged_against=form == QuestionForm.YES_NO
        and pattern("lexicon", "judged_against").search(yes_no_clause(question) or "") is not None,
        choice=choice,
        documents=tuple(
            dict.fromkeys(
                m.group("kind").lower()
                for m in pattern("lexicon", "document_named").finditer(question)
            )
        ),
        relation=_relation(question) if form == QuestionForm.YES_NO else frozenset(),
        together=form == QuestionForm.YES_NO and _together(question),
        switch=_switch(question) if form == QuestionForm.VALUE else None,
        to_set=to_set,
        goal=_goal(question, answer_type),
        versions=_versions(question) if form == QuestionForm.YES_NO else (),
        variants=named_variants(question),
        state=_state(question) if form == QuestionForm.YES_NO else None,
        impersonal=_impersonal(question) if form == QuestionForm.YES_NO else None,
        which=_which(question) if form == QuestionForm.VALUE else None,
        parts=_parts(question, table, models),
        set_value=_set_value(question),
        designated=tuple(designated(question).items()),
        options=named_options(question),
        absent=_absent(question),
        states=tuple(
            dict.fromkeys(
                m.group("thing").lower()
                for m in pattern("lexicon", "state_condition").finditer(question)
            )
        ),
        kind=kind if answer_type == AnswerType.KIND else None,
        act=act if answer_type == AnswerType.AGENT else None,
    )


def named_options(text: str) -> tuple[str, ...]:
    """The command-line options ``text`` names (``lexicon.named_option``), each dash
    written as a hyphen ("−k" of a manual page is "-k")."""
    found = (_hyphens(m.group(0)) for m in pattern("lexicon", "named_option").finditer(text))
    return tuple(dict.fromkeys(found))


def _hyphens(text: str) -> str:
    return text.replace("−", "-").replace("–", "-")


def _absent(question: str) -> tuple[str, ...]:
    """What the question's condition says is absent (``lexicon.asks_absent``)."""
    found = []
    for m in pattern("lexicon", "asks_absent").finditer(question):
        thing = next((g for g in m.groups() if g), None)
        if thing and not set(terms(thing)) <= STOPWORDS | term_set("generic"):
            found.append(thing)
    return tuple(dict.fromkeys(found))


def _state(question: str) -> str | None:
    """The state a "Is <thing> <participle> …?" question asks whether holds, as a term."""
    m = pattern("lexicon", "asks_participle").match(asked_sentence(question))
    found = terms(m.group("participle")) if m else []
    return found[0] if found else None


def _impersonal(question: str) -> str | None:
    """The word that judges a situation asked of "it" (``Asks.impersonal``)."""
    m = pattern("lexicon", "asks_impersonal").search(yes_no_clause(question) or question)
    return m.group("word").lower() if m else None


def _kind(question: str) -> str | None:
    """The kind a "Which <kind> goes in …?" question asks one of, as written: words of
    their own only ("Which one …?", "What else did …?" name no kind)."""
    m = pattern("lexicon", "asks_kind").match(asked_sentence(question))
    if m is None:
        return None
    kind = m.group("kind")
    own = [terms(w) for w in kind.split()]
    plain = STOPWORDS | term_set("generic") | term_set("question_starts") | term_set("not_kinds")
    if not all(t and not set(t) & plain for t in own):
        return None
    return kind


def _act(question: str) -> str | None:
    """What a "Who <does> …?" question asks who does, as a term ("sign" for "Who signs
    the permit?"); None for a verb that says no act of its own ("Who is …?")."""
    m = pattern("lexicon", "asks_who").match(asked_sentence(question))
    if m is None or m.group("act").lower() in words("lexicon", "light_acts"):
        return None
    found = terms(m.group("act"))
    return found[0] if found else None


def _which(question: str) -> tuple[str, str] | None:
    """The kind and what it does, for "Which <kind> <does something>?"."""
    m = pattern("lexicon", "asks_which_does").match(asked_sentence(question))
    return (m.group("head"), m.group("predicate").strip()) if m else None


def designated(text: str) -> dict[str, frozenset[str]]:
    """The nouns ``text`` tells apart by a capital letter ("reservoir B", "systems A and
    B", "the 737's B reservoir"; ``lexicon.designated``, ``designated_before``) or by a
    colour or position before them ("the blue reservoir"; ``lexicon.variant_modifiers``),
    by their term, with every letter or word it names each with."""
    found: dict[str, set[str]] = {}
    both = (pattern("lexicon", "designated"), pattern("lexicon", "designated_before"))
    for m in (m for p in both for m in p.finditer(text)):
        key = terms(m.group("noun"))
        if len(key) == 1:
            found.setdefault(key[0], set()).update(re.findall(r"[A-Z]", m.group("run")))
    # "the blue reservoir", "the left brake": a colour or a position tells it apart too
    said = re.findall(r"[A-Za-z][\w-]*", text)
    for first, second in zip(said, said[1:], strict=False):
        if first.lower() in _VARIANTS and second.lower() not in _VARIANTS:
            key = terms(second)
            if len(key) == 1 and len(second) > 2 and second.lower() not in STOPWORDS:
                found.setdefault(key[0], set()).add(first.lower())
    return {noun: frozenset(letters) for noun, letters in found.items()}


_VARIANTS = WordSet("lexicon", "variant_modifiers")


_PART_QUALIFIERS = WordSet("lexicon", "part_qualifiers")
_PART_PLACES = WordSet("lexicon", "part_places")
_PART_OPENERS = WordSet("lexicon", "part_openers")
_CLAUSE_WORDS = WordSet("lexicon", "clause_words")
_QUESTION_STARTS = WordSet("lexicon", "question_starts")


_WHAT_IS = re.compile(
    r"\s*(?:what|which)(?:\s*['’]s|s|\s+is|\s+are)\s+(?=(?:the|its|their)\s)", re.IGNORECASE
)
_POSSESSIVES = frozenset({"its", "their"})
_DETERMINERS = frozenset({"the", "its", "their", "a", "an"})


def _first_word(text: str) -> str:
    """The first word of ``text``, lower case, without what follows an apostrophe
    ("where's" → "where")."""
    found = re.match(r"\W*(\w+)", text)
    return found.group(1).lower() if found else ""


def _parts(
    question: str, table: AttributeTable, models: Sequence[tuple[str, int, int]]
) -> tuple[AskedPart, ...]:
    """The asks the asked sentence joins with "and" (``lexicon.asked_parts``): two or
    more, each with a term of its own, else none. What a rewrite keeps in brackets
    ("(HP-400)") is context, not an ask; models side by side are ``side_by_side``'s."""
    if side_by_side(question, models):
        return ()
    asked = re.sub(r"\([^()]*\)", " ", asked_sentence(question)).strip().rstrip("?").strip()
    asked = _without_told(asked)
    texts = [t.strip(" ,") for t in pattern("lexicon", "asked_parts").split(asked)]
    if len(texts) < 2 or not all(texts):
        return ()
    if any(t.split()[0].lower() in _PART_QUALIFIERS for t in texts[1:]):
        return ()  # "… in the manual and in the AD": where one thing is asked, twice
    # "what's the kVA rating and the fuel burn at full load?": things joined after its
    # opening "what is the" and no other verb are a fragment's asks ("its" there is
    # no pronoun but says whose); not "What is cleaned and disinfected?"
    opened = _WHAT_IS.match(asked)
    said = [w.lower() for w in re.findall(r"\w+", asked[opened.end() if opened else 0 :])]
    if opened:
        said = [w for w in said if w not in _POSSESSIVES]
        # each later ask a thing of its own: "the fuel burn", "its fuel consumption"
        if any(_first_word(t) not in _PART_OPENERS | _DETERMINERS for t in texts[1:]):
            opened, said = None, [w.lower() for w in re.findall(r"\w+", asked)]
    fragment = not any(w in _CLAUSE_WORDS or w in _QUESTION_STARTS for w in said)
    if not fragment and any(_first_word(t) not in _PART_OPENERS for t in texts[1:]):
        # "What coolant concentration and spindle lube size does the MX-20 need?": things
        # joined before the question's verb are two asks; "cleaned and disinfected",
        # "comes with the washer and filler", "between 2017 and 2022" are one
        verbs = [[w for w in re.findall(r"\w+", t) if w.lower() in _CLAUSE_WORDS] for t in texts]
        if any(verbs[:-1]) or not verbs[-1]:
            return ()
        last = texts[-1].split()
        texts[-1] = " ".join(last[: next(i for i, w in enumerate(last) if w in verbs[-1])])
    skip = STOPWORDS | term_set("generic") | term_set("question_starts") | term_set("part_words")

    def own(text: str) -> set[str]:
        return set(content_terms(text)) - model_terms(set(terms(text))) - skip

    # what a technician tells first is no ask ("HP-400 is showing E4031, | what's
    # wrong"), nor where the thing asked is ("filter | on the GX-500 genset")
    texts = [_CLAUSES.split(t)[-1] for t in texts]
    texts = [_head(t, own) for t in texts]
    said = [own(t) for t in texts]
    shared = {t for i, own in enumerate(said) for t in own if any(t in o for o in said[i + 1 :])}
    keys = [frozenset(own - shared) for own in said]
    if not all(keys):
        return ()  # "…, and how?": a part with no words of its own asks no thing apart
    return tuple(
        AskedPart(text, key, _part_attributes(text, table))
        for text, key in zip(texts, keys, strict=True)
    )


def _part_attributes(text: str, table: AttributeTable) -> tuple[Attribute, ...]:
    """The attributes a part names by their words, else by a unit of theirs ("the kVA
    rating": a power)."""
    named = units_named(text)
    return table.asked_in(text) or tuple(
        a for a in table.attributes if any(u in a.units for u in named)
    )


def _without_told(asked: str) -> str:
    """``asked`` from its first clause that opens with a question word: what a
    technician tells before it is a condition, not an ask, whatever it joins with
    "and" ("With 1 phase and minCurrent 8 A, | how much PV surplus …", "The pump
    leaks and the alarm sounds, | what do I check?"). A question whose first clause
    asks ("How often are X inspected, and how often …") is kept whole."""

    def asks(clause: str) -> bool:
        return clause.split()[:1] != [] and clause.split()[0].lower() in _QUESTION_STARTS

    if asks(asked):
        return asked
    return next((r for m in _CLAUSES.finditer(asked) if asks(r := asked[m.end() :])), asked)


def answers_part(part: AskedPart, parts: Sequence[AskedPart], text: str) -> bool:
    """``text`` answers ``part`` (one of the question's ``parts``): it gives one of the
    attributes the part names — enough when no other part names it ("At what noise level
    …, and when does …?" is answered by "85 dB(A)"), else with one of its other own
    words, or none when it has one at most ("what pressure do they run at?": "at 3000
    psi"); of a part naming no attribute, more than half of its own words ("a hot work
    permit" says one of "permit … tank")."""
    said = set(terms(text))
    named = {t for a in part.attributes for w in a.words for t in w}
    own = part.key - named
    if part.attributes:
        others = {a.name for p in parts if p is not part for a in p.attributes}
        alone = not others & {a.name for a in part.attributes}
        given = any(a.addressed_by(text) for a in part.attributes)
        return given and (alone or len(own) <= 1 or bool(own & said))
    return len(own & said) * 2 > len(own)


def _head(text: str, own) -> str:
    """``text`` up to where its thing is ("filter on the GX-500 genset": "filter"), also
    when nothing before it is its own ("What does E05 mean on the CX-100 controller":
    the code's meaning); "one for grinding …" keeps its qualifier ("for" says what)."""
    words_ = text.split()
    for i, w in enumerate(words_[1:], 1):
        if w.lower() in _PART_PLACES:
            head = " ".join(words_[:i])
            # "What does E05 mean | on the CX-100 controller": the code's meaning, no
            # thing of its own (the part has no words of its own then)
            return head if own(head) or not own(text) - own(" ".join(words_[i:])) else text
    return text


def names_part_number(text: str) -> bool:
    """Whether ``text`` opens with words asking a part number ("part number", "P/N")."""
    return _PART_NUMBER.match(text.lstrip()) is not None


def _set_value(question: str) -> tuple[str, float] | None:
    m = pattern("lexicon", "sets_value").search(asked_sentence(question))
    return (m.group("key"), float(m.group("value"))) if m else None


def _form(question: str) -> QuestionForm:
    """How the question asks: by its opening words, or for yes or no by the sentence
    that asks or its last clause ("My moteus went into mode 11. Will it start moving
    again …?", "I've only got the grey cable - will the driver work with it?"); not a
    question whose last clause asks with a wh-word ("can't reach the roboRIO, what do I
    try next?" asks what)."""
    opening = asking_clause(question)  # the form is read where the asking opens
    form = next((f for f, p in _FORM_PATTERNS if p.match(opening)), QuestionForm.VALUE)
    if form not in (QuestionForm.VALUE, QuestionForm.YES_NO):
        return form
    last = _CLAUSES.split(asked_sentence(question))[-1]
    if _WH.match(last):
        return QuestionForm.VALUE
    if form == QuestionForm.YES_NO or yes_no_clause(question) is not None:
        return QuestionForm.YES_NO
    return form


def yes_no_clause(question: str) -> str | None:
    """The clause of ``question`` that asks yes or no: the asked sentence's last clause
    when it opens as a yes/no question, else the asked sentence, else the question, when
    one does; None when none does."""
    asked = asked_sentence(question)
    last = _CLAUSES.split(asked)[-1]
    return next((c for c in (last, asked, question) if _YES_NO.match(c)), None)


def _relation(question: str) -> frozenset[str]:
    clause = yes_no_clause(question) or question
    clause = pattern("lexicon", "condition_clause").sub(" ", clause)
    names = model_terms(set(terms(clause))) | {t for p in product_names(clause) for t in terms(p)}
    found = frozenset(
        t
        for t in content_terms(clause)
        if len(t) > 2 or any(c.isdigit() for c in t)  # not a prefix's scrap: "re" of "re-checked"
    )
    found -= names | term_set("generic")
    return found if len(found) >= OWN_RELATION else frozenset()


def _together(question: str) -> bool:
    clause = yes_no_clause(question) or question
    return pattern("lexicon", "asks_together").search(clause) is not None


def _goal(question: str, answer_type: AnswerType) -> str | None:
    """The verb of what a how-to question wants done, or of what a why question asks
    the reason for doing ("why would I need to debounce the limit switch inputs?")."""
    kinds = {AnswerType.PROCEDURE: "asks_how_to", AnswerType.REASON: "asks_why_doing"}
    if answer_type not in kinds:
        return None
    m = pattern("lexicon", kinds[answer_type]).search(asked_sentence(question))
    if m is None:
        return None
    # "re-read", "power-cycle": the verb is the last part of a word written with its prefix
    found = terms(m.group("goal"))[-1:]
    skip = STOPWORDS | term_set("generic") | term_set("doing") | term_set("question_verbs")
    skip |= term_set("light_goals")  # "How do I check if …?": what is wanted comes after
    return found[0] if found and found[0] not in skip else None


def _switch(question: str) -> Switch | None:
    """The way the asked value switches something (``lexicon.asks_value_that_switches``)."""
    m = pattern("lexicon", "asks_value_that_switches").search(asked_sentence(question))
    if m is None:
        return None
    way = m.group("way")
    if pattern("lexicon", "switches_on").search(way):
        return Switch.ON
    return Switch.OFF if pattern("lexicon", "switches_off").search(way) else None


def _versions(question: str) -> tuple[str, ...]:
    """The versions the yes/no clause names, not figures with their units ("2.5 bar")."""
    clause = yes_no_clause(question) or question
    figures = quantities(clause)
    found = pattern("lexicon", "gives_version").finditer(clause)
    return tuple(
        dict.fromkeys(
            m.group(0)
            for m in found
            if not any(q.start < m.end() and m.start() < q.end for q in figures)
        )
    )


def side_by_side(question: str, models: Sequence[tuple[str, int, int]]) -> tuple[str, ...]:
    """The first run of models named side by side — a comma, "and", "or" or "&" between
    them, an article allowed — not a part and the model it fits ("Does the PX-3 fit the
    HP-250?") nor a code of a model ("the DX-40 F03 alarm")."""
    run: list[str] = []
    ordered = sorted(models, key=lambda m: m[1])
    for (first, _, first_end), (second, second_start, _) in zip(ordered, ordered[1:]):
        if _COORDINATED.fullmatch(question[first_end:second_start]):
            run += [first, second] if not run else [second]
        elif run:
            break
    names = dict.fromkeys(n for n in run if not any(map(CODE_TERM.match, terms(n))))
    return tuple(names) if len(names) >= 2 else ()


def _comparison(question: str, table: AttributeTable) -> Comparison | None:
    found = table.comparatives.find(question)
    if found is None:
        return None
    word, direction = found
    difference = pattern("lexicon", "asks_difference").search(question) is not None
    if word not in ("more", "less", "fewer"):
        return Comparison(word, direction, f"is {word}", difference)
    after = re.search(rf"\b{word}\s+(\w+)", question.lower())
    if after is None or not attribute_units(after.group(1)):
        return Comparison(word, direction, None, difference)
    return Comparison(word, direction, f"has {word} {after.group(1)}", difference)


def _answer_type(
    question: str,
    form: QuestionForm,
    measure: Measure | None,
    asked: tuple[Attribute, ...],
    action: Action | None,
    models: Sequence[tuple[str, int, int]] = (),
) -> AnswerType:
    """The kind of answer the question's form fixes, first match wins: a yes/no or why
    form, a how-many count, a code's meaning, a part number, steps, a figure of an
    asked attribute measured in units (or how often / how long it takes), an amount
    ("how much …")."""
    if form == QuestionForm.YES_NO:
        return AnswerType.YES_NO
    if form == QuestionForm.WHY:
        return AnswerType.REASON
    if measure == Measure.COUNT:
        return AnswerType.COUNT
    if _WHERE.match(asking_clause(question)):
        return AnswerType.PLACE
    if (
        _MEANING.search(question)
        or _what_it_is(question)
        or _terse_signal(question)
        or _reports_a_code(question, models)
    ):
        return AnswerType.MEANING
    if _PART_NUMBER.search(question):
        return AnswerType.PART_NUMBER
    if _purpose_focus(question):
        return AnswerType.PURPOSE
    if _OPTIONS.search(asked_sentence(question)):
        return AnswerType.OPTIONS
    if action == Action.HOW_TO:
        return AnswerType.PROCEDURE
    if pattern("lexicon", "asks_for_action").match(question):
        return AnswerType.ACTION
    if measure is not None or (form == QuestionForm.VALUE and any(a.units for a in asked)):
        return AnswerType.FIGURE
    if form == QuestionForm.VALUE and _HOW_MUCH.search(question):
        return AnswerType.FIGURE
    return AnswerType.ANY


def _purpose_focus(question: str) -> Focus | None:
    """The thing a "what is X for?" or "what does X do?" question asks the purpose of
    (``lexicon.asks_purpose``, ``lexicon.asks_function``),
    as a focus: its distinctive terms, names and generic words aside."""
    asked = asked_sentence(question)
    m = next(
        (
            found
            for name in ("asks_purpose", "asks_function", "asks_purpose_of")
            if (found := pattern("lexicon", name).match(asked))
        ),
        None,
    )
    if m is None:
        return None
    phrase = terms(m.group("focus"))
    skip = model_terms(set(phrase)) | STOPWORDS | term_set("generic")
    return Focus(m.group("focus").strip(), frozenset(t for t in phrase if t not in skip))


def _terse_signal(question: str) -> bool:
    """ "roboRIO status light blinking 3 times?": a signal named by its count, alone —
    its meaning (``lexicon.terse_signal``)."""
    return pattern("lexicon", "terse_signal").match(asked_sentence(question)) is not None


def _reports_a_code(question: str, models: Sequence[tuple[str, int, int]] = ()) -> bool:
    """ "ac110 throwing E2215", "getting E5120 on it now": a turn that names a code and
    nothing else but models and the words reporting it (``lexicon.reports_a_code``)
    asks what the code means; "E2215 reset?" asks something else. A model perception
    read (``models``: "(A320)") is no code."""
    found = pattern("lexicon", "asked_signal").finditer(question)
    spans = {(start, end) for _, start, end in models}
    if not any(m.group("code") and m.span("code") not in spans for m in found):
        return False
    rest = set(content_terms(question)) - named_identifiers(question)
    return not rest - set(terms(" ".join(words("lexicon", "reports_a_code"))))


def _what_it_is(question: str) -> bool:
    """ "… throwing fault 34 …, what is that?": a code or numbered signal named, then
    asked what it is — its meaning."""
    if not pattern("lexicon", "asks_what_it_is").search(question):
        return False
    found = pattern("lexicon", "asked_signal").finditer(question)
    return any(m.group("code") or m.group("number") for m in found)


def _signals(question: str, answer_type: AnswerType) -> tuple[str, ...]:
    """The codes and signal numbers a meaning or what-happens question asks about."""
    asked = asked_sentence(question)
    clauses = re.split(r",\s+", asked)  # "On an FNN box, what happens …?"
    if (
        answer_type != AnswerType.MEANING
        and not any(map(_WHAT_HAPPENS.match, clauses))
        and not pattern("lexicon", "diagnosis").match(asked)  # "… shows C207A0. Cause?"
    ):
        return ()
    light = pattern("lexicon", "light").search(question)
    found = pattern("lexicon", "asked_signal").finditer(question)
    return tuple(dict.fromkeys(s for m in found if (s := _signal(m, bool(light)))))


def _named_terms(question: str, focus: Focus | None) -> tuple[str, ...]:
    """The acronyms and keys ``question`` names (``lexicon.named_term``), a plural as its
    singular ("PT100s": "PT100"), without its models and codes, product names and units,
    kinds of document ("FAQ", ``lexicon.document_kinds``), nor the value a value
    question asks for ("What IP …?": an address answers it)."""
    taken = {t for name, _, _ in identifiers(question) for t in terms(name)}
    asked = focus.wanted if focus else frozenset()
    taken |= {t for p in product_names(question) for t in terms(p)}
    kinds = {w.lower() for w in words("lexicon", "document_kinds")}
    found = []
    for m in pattern("lexicon", "named_term").finditer(question):
        term = m.group(0)
        if term.endswith("s") and (term[-2].isupper() or term[-2].isdigit()):
            term = term[:-1]  # "PT100s", "RCDs"
        said = set(terms(term))
        if not said or said & taken or said <= asked or units_named(term):
            continue
        if term.lower() in kinds:  # "the help desk FAQ": a kind of source
            continue
        found.append(term)
    return tuple(dict.fromkeys(found))


def _value_shape(question: str) -> str | None:
    """The shape of value the asked sentence's head noun asks for ("What port …?": a
    port), from ``words.value_shapes`` and its ``asks_<shape>`` patterns, or None."""
    asked = asked_sentence(question)
    shapes = words("lexicon", "value_shapes")
    return next((s for s in shapes if pattern("lexicon", f"asks_{s}").match(asked)), None)


def _diagnosis(question: str) -> bool:
    """The sentence that asks, or a clause of it, asks what is wrong or the cause."""
    clauses = re.split(r",\s+|\s[—–-]\s*", asked_sentence(question))
    return any(pattern("lexicon", "diagnosis").match(c) for c in clauses)


def _asks_default(question: str, form: QuestionForm) -> bool:
    """A value question for the default ("What … is it set to by default?"), not for
    how the default changed."""
    asked = asked_sentence(question)
    return (
        form == QuestionForm.VALUE and bool(_DEFAULT.search(asked)) and not _CHANGED.search(asked)
    )


def _code_family(question: str) -> str | None:
    found = _CODE_FAMILY.match(asked_sentence(question).replace("\u2019", "\x27"))
    return found.group("letter") if found else None


def _signal(m: re.Match[str], light: bool) -> str | None:
    """A code or number as written; a colour (lower case) only for a light."""
    if m.group("colour"):
        return m.group("colour").lower() if light else None
    return m.group("code") or m.group("number") or m.group("count")


def _measure(question: str) -> Measure | None:
    question = asking_clause(question)  # read where the asking opens
    if _HOW_OFTEN.match(question):
        return Measure.FREQUENCY
    if _HOW_LONG_TAKES.match(question):
        return Measure.DURATION
    if _HOW_MANY.match(question):
        return Measure.COUNT
    return None


def _focus(question: str) -> Focus | None:
    """The noun phrase ``question`` asks about, as written and as its distinctive terms,
    read from its asked sentence (``asked_sentence``)."""
    question = asked_sentence(question)
    if _NO_FOCUS.search(question):
        return None
    for form in _FOCUS_FORMS:
        if m := form.match(question):
            phrase = terms(m.group("focus"))
            names = model_terms(set(phrase))
            generic = term_set("generic")
            wanted = frozenset(t for t in phrase if t not in names | STOPWORDS and t not in generic)
            if form is _HOW_MUCH_DOES and names and not _PART_OF.search(m.group("focus")):
                wanted = frozenset()  # "the CH-80 charger" is the CH-80: its model names it
            return Focus(
                m.group("focus").strip(),
                wanted,
                amount=form is _HOW_MUCH_OF,
                holder=form is _HOW_MUCH_DOES,
            )
    return None


# Where the sentence that asks begins, after what a technician tells first: "I want the
# proxy to reject writes. | What readonly value do I set?", "Changed upsd.conf — | how do
# I …?". A full stop before a figure ("Rev. 2") ends no sentence, nor does a comma ("In
# March 2022, what …?" is one sentence: its qualifier says when, not something told). An
# acronym ends a sentence too ("… on my GS2 VFD. What does …?"), not one capital ("No. 5").
# Written as a chat, the asked sentence may open in lower case or after a name in
# capitals ("… it's working fine. | which upsd setting …?", "… a new Smart-UPS. | Should
# I …?"): a break there is read when a question opens after it (a wh-word or a yes/no
# verb, perhaps after one word), so "e.g. the" stays inside its sentence.
_OPENS = (
    r"(?=(?i:(?:\w+\s+)?(?:what|what's|whats|which|how|where|when|who|why|can|could|is|are"
    r"|does|do|did|will|would|should|may|must|has|have)\b))"
)
_ASKED_STARTS = re.compile(
    r"(?:(?<=[a-z0-9)\]\"'])|(?<=[A-Z0-9][A-Z]))[.!]\s+(?=[A-Z])|\s[—–]\s*"
    rf"|(?<=[A-Za-z0-9)\]\"']{{2}})[.!]\s+{_OPENS}"
)
# The topic a chat puts before its question, after a hyphen used as a dash or as a label
# ("odrivetool - | what's the command …?", "homing config: | what is HOME_LATCH_VEL
# for?"): the question's form is read after it, its subject still from all of it ("odrive
# on a CAN bus - what bitrate is it running …?" asks about the odrive). Not "10 - 20 V".
_TOPIC = re.compile(rf"\s-\s+{_OPENS}|^[^?:]{{1,60}}:\s+{_OPENS}")


def asking_clause(question: str) -> str:
    """Where ``question`` opens to ask, for reading its form: its asked sentence
    (``asked_sentence``) after the topic a chat puts first (``_TOPIC``)."""
    asked = asked_sentence(question)
    starts = [m.end() for m in _TOPIC.finditer(asked.rstrip())]
    return asked[starts[-1] :] if starts else asked


def asked_sentence(question: str) -> str:
    """The sentence of ``question`` that asks: the text after its last sentence break,
    when that text is a question; else all of it."""
    starts = [m.end() for m in _ASKED_STARTS.finditer(question.rstrip())]
    asked = question[starts[-1] :] if starts else question
    return asked if asked.strip().endswith("?") and asked.strip() != "?" else question


def _done(question: str) -> Done | None:
    """What a "how often / how long … be <done>" question says is done: the verb phrase,
    not the rule or place named after it ("… be offered under the 2021 regulation?")."""
    for form in (_HOW_OFTEN_DONE, _HOW_LONG_DONE):
        if how := form.match(question):
            verb = _QUALIFIER.split(question[how.end("focus") :], maxsplit=1)[0]
            said = _QUALIFIER.split(question[how.end() :], maxsplit=1)[0].strip()
            return Done(frozenset(terms(verb)) - term_set("generic"), form is _HOW_OFTEN_DONE, said)
    return None


def _choice(question: str, table: AttributeTable) -> bool:
    """A choice ("A or B", "more or less") and an order to choose by ("faster", "more
    often"); "Which inverter is more efficient?" chooses among several too (unless it
    asks for those beyond a bound: "Which pumps deliver more than 100 L/min?")."""
    choice = "or" in re.findall(r"[a-z]+", question.lower()) or bool(
        _WHICH.match(question) and not _THAN_A_FIGURE.search(question)
    )
    return choice and bool(table.comparatives.find(question) or _MORE_OFTEN.search(question))


def _asked_attributes(question: str, table: AttributeTable) -> tuple[Attribute, ...]:
    """The attributes ``question`` asks for, without those whose word only modifies
    another noun there: "flow diversion records", "pressure vessel", "power supply"
    name a thing, not a flow, a pressure or a power."""
    tokens = _TOKEN.findall(question.lower())
    return tuple(a for a in table.asked_in(question) if not _only_as_modifier(a, tokens))


def _only_as_modifier(attribute: Attribute, tokens: list[str]) -> bool:
    """Every mention of ``attribute`` by its name is followed by the noun it modifies
    (and none of its several-word phrases is present). Only the name is read so: other
    words of an attribute may be adjectives ("hotter fluid" asks for a temperature)."""
    single = set(terms(attribute.name))
    if any(len(w) > 1 and w <= set(terms(" ".join(tokens))) for w in attribute.words):
        return False
    still_asked = term_set("measures") | term_set("prepositions") | term_set("question_verbs")
    seen = False
    for i, token in enumerate(tokens):
        # "high-pressure pump": the compound's last word is the one that modifies.
        if not (stems := terms(token)) or stems[-1] not in single:
            continue
        seen = True
        after = tokens[i + 1] if i + 1 < len(tokens) else ""
        head = terms(after)
        if (
            not head
            or not after[0].isalpha()
            or head[0] in still_asked | single
            or model_terms(head)
            or units_named(after)
            or after.endswith("ed")
        ):
            return False  # this mention asks for the attribute
    return seen
