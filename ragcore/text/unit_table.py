"""Units as data: ``ragcore/rules/units.toml``, one row per canonical unit.

A row names the unit in its canonical spelling, the spellings documents write it in,
what it measures (its dimension) and the factor to that dimension's base unit (or, for
temperatures, a factor and an offset to °C), and how it is read (a one-letter spelling
that needs a space, a short unit that counts as named on its own, ...)::

    [[unit]]
    name = "bar"
    spellings = ["bar(g)", "bar (g)", "barg", "bar"]
    dimension = "pressure"
    factor = 1e5                 # or an expression: "1 / 60_000"
    example = "PB-120: 9 bar."   # quantities() must find the unit here
    counter_example = "..."      # optional: ... and not here

The file is read and checked once, on first use (importing reads nothing). A bad entry
is a ``ConfigError`` naming ``units.toml`` and the key. The examples are run where the
units are matched (``ragcore.text.quantities``), when its patterns are first built.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ragcore.errors import ConfigError

UNITS_FILE = Path(__file__).resolve().parents[1] / "rules" / "units.toml"
_UNIT_KEYS = frozenset(
    {
        "name",
        "spellings",
        "dimension",
        "factor",
        "offset",
        "convertible",
        "spaced",
        "named_alone",
        "verb",
        "not_as_written",
        "exact_spellings",
        "glued",
        "example",
        "counter_example",
    }
)
# A compound unit as canonically written: two units divided ("g/kWh") or multiplied
# ("kW·h"); manuals write the product's dot as "·" or "⋅".
COMPOUND_OPERATORS = "/·⋅"
_COMPOUND = re.compile(r"^([^/·⋅]+)([/·⋅])([^/·⋅]+)$")
_FLOW_KEYS = frozenset({"about", "volumes", "each", "times"})
# What may follow a unit as matched: a spelling that another one begins with is tried
# first only when the character after the shorter one lets the shorter one match too.
_UNIT_FOLLOWS = re.compile(r"[\w/³²]")


@dataclass(frozen=True)
class Unit:
    """One canonical unit of ``units.toml``."""

    name: str
    spellings: tuple[str, ...]
    dimension: str | None
    """None for a unit declared without conversion (``convertible = false``)."""
    factor: float | None
    offset: float | None
    """Set for an affine unit (a temperature): base = value * factor + offset."""
    spaced: bool
    named_alone: bool
    verb: bool
    not_as_written: tuple[str, ...]
    exact_spellings: tuple[str, ...]
    glued: tuple[str, ...]
    """One-letter spellings, as written (case counts), that may stand against the figure
    although the unit is spaced: "5V", "50W", "10s" (not "5v" of a version, "10S" cells)."""
    example: str
    counter_example: str | None


@dataclass(frozen=True)
class UnitTable:
    """``units.toml`` read and checked, in the shapes the text layer uses."""

    path: Path
    units: Mapping[str, Unit]
    spellings: tuple[tuple[str, str], ...]
    """(spelling as written, canonical unit), generated flow spellings first, then each
    unit's spellings in file order: a spelling another one begins with comes after it
    ("L/min" before "L")."""
    canonical: Mapping[str, str]
    """Lower-cased spelling → canonical unit."""
    exact: Mapping[str, str]
    """Spellings told apart by their case ("mΩ" is not "MΩ") → canonical unit."""
    spaced: frozenset[str]
    """Lower-cased one-letter spellings that need a space or hyphen after a figure."""
    named_alone: frozenset[str]
    """Short units that count as named without a figure when written canonically."""
    verbs: frozenset[str]
    """Lower-cased spellings that are also verbs ("runs")."""
    not_as_written: frozenset[str]
    """Spellings that are no unit when written exactly so ("5 a.m.")."""
    glued: frozenset[str]
    """One-letter spellings, as written, that may stand against their figure ("5V")."""
    attributes: Mapping[str, tuple[str, ...]]
    """Attribute words and the units a comparison about them is in ("louder" → dB(A))."""
    linear: Mapping[str, tuple[str, float]]
    """Unit → (dimension, factor to the dimension's base unit)."""
    affine: Mapping[str, tuple[float, float]]
    """Unit → (factor, offset) to its dimension's base unit (temperatures, to °C)."""
    per_words: tuple[str, ...]
    """The words that divide a unit by the next (``flow_spellings.each``: "per", "a",
    "an"): "8.5 L per kg" is 8.5 L/kg, as written with the slash."""
    derived: Mapping[str, tuple[str, float]]
    """A compound's dimension ("volume/duration") → the named dimension a listed unit of
    that make gives it ("flow", from L/min) and the factor from the compound's base units
    to that dimension's base (m³/h → m³/s: 1/3600)."""

    def linear_of(self, unit: str) -> tuple[str, float] | None:
        """(dimension, factor to its base unit) of ``unit``: a listed linear unit, or a
        compound of two ("g/kWh": mass/energy, "gal/h": flow), else None."""
        if unit in self.linear:
            return self.linear[unit]
        return _compound(self.linear, self.derived, unit)


@functools.cache
def unit_table() -> UnitTable:
    """The shipped ``rules/units.toml``, read and checked once."""
    return load_unit_table(UNITS_FILE)


def load_unit_table(path: Path) -> UnitTable:
    """Read and check a units file (see the module docstring)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(path.name, str(path), f"cannot read the file ({exc})") from exc
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise ConfigError(path.name, str(path), f"not valid TOML: {exc}") from exc
    file = path.name
    unknown = set(data) - {"unit", "flow_spellings", "attributes"}
    if unknown:
        fix = "a units file holds [[unit]], [flow_spellings] and [attributes]"
        raise ConfigError(f"{file}:{sorted(unknown)[0]}", None, fix)
    rows = data.get("unit")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, dict) for r in rows):
        raise ConfigError(f"{file}:unit", rows, "must be [[unit]] tables, one per unit")
    units: dict[str, Unit] = {}
    for i, row in enumerate(rows):
        unit = _unit(row, f"{file}:unit[{i}]")
        if unit.name in units:
            raise ConfigError(f"{file}:unit.{unit.name}", unit.name, "is defined twice")
        units[unit.name] = unit
    by_spelling = {s.lower(): u.name for u in units.values() for s in u.spellings}
    spellings = _flow_spellings(data.get("flow_spellings"), by_spelling, units, file)
    spellings += [(s, u.name) for u in units.values() for s in u.spellings]
    _check_spellings(spellings, file)
    canonical = {s.lower(): c for s, c in spellings}
    exact = {}
    for u in units.values():
        for s in u.exact_spellings:
            if s.lower() not in canonical:
                fix = "must be matched by a spelling of some unit (case ignored)"
                raise ConfigError(f"{file}:unit.{u.name}.exact_spellings", s, fix)
            exact[s] = u.name
    for u in units.values():
        for s in u.not_as_written:
            if s not in u.spellings:
                raise ConfigError(f"{file}:unit.{u.name}.not_as_written", s, "is no spelling of it")
    dimensions: dict[str, bool] = {}
    for u in units.values():
        if u.dimension is not None:
            affine = u.offset is not None
            if dimensions.setdefault(u.dimension, affine) != affine:
                fix = "all units of a dimension have an offset or none has"
                raise ConfigError(f"{file}:unit.{u.name}.offset", u.offset, fix)
    linear = {
        u.name: (u.dimension, u.factor)
        for u in units.values()
        if u.dimension is not None and u.factor is not None and u.offset is None
    }
    return UnitTable(
        path=path,
        units=units,
        spellings=tuple(spellings),
        canonical=canonical,
        exact=exact,
        spaced=frozenset(
            s.lower() for u in units.values() if u.spaced for s in u.spellings if len(s) == 1
        ),
        named_alone=frozenset(u.name for u in units.values() if u.named_alone),
        verbs=frozenset(s.lower() for u in units.values() if u.verb for s in u.spellings),
        not_as_written=frozenset(s for u in units.values() for s in u.not_as_written),
        glued=frozenset(s for u in units.values() for s in u.glued),
        attributes=_attributes(data.get("attributes", {}), units, file),
        linear=linear,
        affine={
            u.name: (u.factor, u.offset)
            for u in units.values()
            if u.factor is not None and u.offset is not None
        },
        per_words=_per_words(data.get("flow_spellings")),
        derived=_derived(linear, file),
    )


def _per_words(table: object) -> tuple[str, ...]:
    """The ``each`` words of ``[flow_spellings]`` (checked there), or none."""
    if not isinstance(table, dict):
        return ()
    return tuple(table.get("each", ()))


def _compound(
    linear: Mapping[str, tuple[str, float]], derived: Mapping[str, tuple[str, float]], unit: str
) -> tuple[str, float] | None:
    """(dimension, factor) of a compound of two linear units ("g/kWh" → mass/energy, a
    gram over a kWh); the named dimension of ``derived`` when a listed unit has one of
    that make ("gal/h" → flow, as L/min). None for no compound of known units."""
    m = _COMPOUND.match(unit)
    if m is None or m.group(1) not in linear or m.group(3) not in linear:
        return None
    (top, a), op, (bottom, b) = linear[m.group(1)], m.group(2), linear[m.group(3)]
    if op == "/":
        make, factor = f"{top}/{bottom}", a / b
    else:
        make, factor = f"{top}·{bottom}", a * b
    if make in derived:
        named, scale = derived[make]
        return named, factor * scale
    return make, factor


def _derived(linear: Mapping[str, tuple[str, float]], file: str) -> dict[str, tuple[str, float]]:
    """The named dimensions of the compounds the file lists ("L/min" is a flow: volume
    over duration), so that a compound it does not list ("gal/h") converts to them. Two
    listed units of one make must agree on its dimension and factor."""
    derived: dict[str, tuple[str, float]] = {}
    for name, (dimension, factor) in linear.items():
        made = _compound(linear, {}, name)
        if made is None or made[0] == dimension:
            continue
        make, composed = made
        scale = factor / composed
        known = derived.setdefault(make, (dimension, scale))
        if known[0] != dimension or abs(known[1] - scale) > 1e-9 * abs(scale):
            fix = f"a {make} unit is a {known[0]} with factor {known[1]:g} per base unit"
            raise ConfigError(f"{file}:unit.{name}.factor", factor, fix)
    return derived


def _unit(row: dict, where: str) -> Unit:
    name = row.get("name")
    if not isinstance(name, str) or not name:
        raise ConfigError(f"{where}.name", name, "every unit needs a name (its canonical spelling)")
    where = f"{where.rsplit(':', 1)[0]}:unit.{name}"
    if set(row) - _UNIT_KEYS:
        raise ConfigError(f"{where}.{sorted(set(row) - _UNIT_KEYS)[0]}", None, "is no unit key")
    spellings = _strings(row.get("spellings"), f"{where}.spellings")
    exact = _strings(row.get("exact_spellings", []), f"{where}.exact_spellings")
    if not spellings and not exact:
        raise ConfigError(f"{where}.spellings", spellings, "a unit needs a spelling")
    dimension = row.get("dimension")
    convertible = row.get("convertible", True)
    if convertible is not True and convertible is not False:
        raise ConfigError(f"{where}.convertible", convertible, "must be true or false")
    factor = offset = None
    if convertible:
        if not isinstance(dimension, str) or not dimension:
            fix = "give its dimension and factor, or declare it with convertible = false"
            raise ConfigError(f"{where}.dimension", dimension, fix)
        if "factor" not in row:
            raise ConfigError(f"{where}.factor", None, "a convertible unit needs a factor")
        factor = _number(row["factor"], f"{where}.factor")
        if factor == 0:
            raise ConfigError(f"{where}.factor", row["factor"], "must not be zero")
        if "offset" in row:
            offset = _number(row["offset"], f"{where}.offset")
    elif dimension is not None or "factor" in row or "offset" in row:
        fix = "a unit declared without conversion has no dimension, factor or offset"
        raise ConfigError(f"{where}.convertible", False, fix)
    example = row.get("example")
    if not isinstance(example, str) or not example:
        raise ConfigError(f"{where}.example", example, "every unit needs an example text")
    counter = row.get("counter_example")
    if counter is not None and (not isinstance(counter, str) or not counter):
        raise ConfigError(f"{where}.counter_example", counter, "must be a non-empty string")
    flags = {}
    for flag in ("spaced", "named_alone", "verb"):
        value = row.get(flag, False)
        if value is not True and value is not False:
            raise ConfigError(f"{where}.{flag}", value, "must be true or false")
        flags[flag] = value
    if flags["spaced"] and not any(len(s) == 1 for s in spellings):
        raise ConfigError(f"{where}.spaced", True, "the unit has no one-letter spelling")
    glued = _strings(row.get("glued", []), f"{where}.glued")
    for s in glued:
        if not flags["spaced"] or len(s) != 1 or s.lower() not in {x.lower() for x in spellings}:
            fix = "only a spaced unit's one-letter spelling may be glued to its figure"
            raise ConfigError(f"{where}.glued", s, fix)
    return Unit(
        name=name,
        spellings=spellings,
        dimension=dimension if convertible else None,
        factor=factor,
        offset=offset,
        spaced=flags["spaced"],
        named_alone=flags["named_alone"],
        verb=flags["verb"],
        not_as_written=_strings(row.get("not_as_written", []), f"{where}.not_as_written"),
        exact_spellings=exact,
        glued=glued,
        example=example,
        counter_example=counter,
    )


def _flow_spellings(
    table: object, by_spelling: Mapping[str, str], units: Mapping[str, Unit], file: str
) -> list[tuple[str, str]]:
    """A volume "per minute", "an hour" or "a second" is a flow, however it is written:
    every volume × each × time, in that order, canonical "<volume>/<time>"."""
    if table is None:
        return []
    where = f"{file}:flow_spellings"
    if not isinstance(table, dict) or set(table) - _FLOW_KEYS:
        raise ConfigError(where, table, f"takes {sorted(_FLOW_KEYS)}")
    parts = {k: _strings(table.get(k), f"{where}.{k}") for k in ("volumes", "each", "times")}
    for key in ("volumes", "times"):
        for word in parts[key]:
            if word.lower() not in by_spelling:
                raise ConfigError(f"{where}.{key}", word, "is no spelling of a unit")
    out = []
    for volume in parts["volumes"]:
        for each in parts["each"]:
            for time in parts["times"]:
                flow = f"{by_spelling[volume.lower()]}/{by_spelling[time.lower()]}"
                if flow not in units:
                    raise ConfigError(f"{where}.volumes", volume, f"makes {flow}, no unit")
                out.append((f"{volume} {each} {time}", flow))
    return out


def _check_spellings(spellings: list[tuple[str, str]], file: str) -> None:
    seen: dict[str, str] = {}
    for spelling, unit in spellings:
        key = spelling.lower()
        if key in seen:
            what = "maps to two units" if seen[key] != unit else "is listed twice"
            raise ConfigError(f"{file}:unit.{unit}.spellings", spelling, what)
        seen[key] = unit
    # A spelling that another begins with, followed by a character that lets the shorter
    # one match as well ("bar" in "bar (g)"), must come after it: alternatives are tried
    # in order.
    lowered = [s.lower() for s, _ in spellings]
    for i, (short, unit) in enumerate(spellings):
        for longer in lowered[i + 1 :]:
            if (
                len(longer) > len(short)
                and longer.startswith(short.lower())
                and not _UNIT_FOLLOWS.match(longer[len(short)])
            ):
                fix = f"comes before {longer!r}, which it begins: list the longer first"
                raise ConfigError(f"{file}:unit.{unit}.spellings", short, fix)


def _attributes(table: object, units: Mapping[str, Unit], file: str) -> dict[str, tuple[str, ...]]:
    if not isinstance(table, dict):
        raise ConfigError(f"{file}:attributes", table, "must be a table: word = [units]")
    out = {}
    for word, targets in table.items():
        found = _strings(targets, f"{file}:attributes.{word}")
        for unit in found:
            if unit not in units:
                raise ConfigError(f"{file}:attributes.{word}", unit, "is no canonical unit")
        out[word] = found
    return out


def _number(value: object, where: str) -> float:
    """A number, or an expression of numbers, ``*`` and ``/`` worked left to right as
    Python would ("1 / 60_000", "-32 * 5 / 9")."""
    if isinstance(value, bool):
        raise ConfigError(where, value, "must be a number or an expression like '1 / 60'")
    if isinstance(value, (int, float)):
        return float(value)
    if not isinstance(value, str):
        raise ConfigError(where, value, "must be a number or an expression like '1 / 60'")
    tokens = value.split()
    try:
        result = float(tokens[0])
        for op, operand in zip(tokens[1::2], tokens[2::2], strict=True):
            if op == "*":
                result *= float(operand)
            elif op == "/":
                result /= float(operand)
            else:
                raise ValueError(op)
    except (ValueError, IndexError, ZeroDivisionError) as exc:
        raise ConfigError(where, value, "must be a number or an expression like '1 / 60'") from exc
    return result


def _strings(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(where, value, "must be a list of non-empty strings")
    return tuple(value)
