"""Which units measure the same thing, and converting a value between them.

Canonical unit spellings, dimensions and factors are those of ``rules/units.toml``
(``ragcore.text.unit_table``). Two quantities
agree when they are equal after conversion, up to the precision the stated one is
written with ("145 psi" states 10 bar: 145.04 rounds to 145).
"""

from __future__ import annotations

from collections.abc import Collection

from ragcore.text.unit_table import unit_table


def dimension(unit: str) -> str:
    """What ``unit`` measures; a unit with no known relatives is its own dimension."""
    table = unit_table()
    if unit in table.affine:
        return table.units[unit].dimension or unit
    linear = table.linear_of(unit)
    return linear[0] if linear else unit


def in_units(unit: str, units: Collection[str]) -> bool:
    """Whether a figure in ``unit`` is a figure in one of ``units``: ``unit`` itself, or
    the unit a compound the table does not list counts, per each of another ("8.5 L/kg",
    a manual's "8.5 L per kg", is litres of water; a listed compound is a unit of its own:
    "450 L/min" is a flow, not a volume)."""
    if unit in units:
        return True
    table = unit_table()
    top = unit.split("/", 1)[0]
    return "/" in unit and unit not in table.units and top in units


def convert(value: float, unit: str, to: str) -> float | None:
    """``value`` in ``unit`` expressed in ``to``; None when they measure different things."""
    if unit == to:
        return value
    table = unit_table()
    affine = table.affine
    if unit in affine and to in affine and dimension(unit) == dimension(to):
        a, b = affine[unit]
        base = value * a + b  # a temperature in °C
        a, b = affine[to]
        return (base - b) / a
    source, target = table.linear_of(unit), table.linear_of(to)
    if source and target and source[0] == target[0]:
        return value * source[1] / target[1]
    return None


def agrees(stated: float, stated_unit: str, source: float, source_unit: str) -> bool:
    """Whether the stated quantity is the source quantity, converted and rounded as written."""
    converted = convert(source, source_unit, stated_unit)
    if converted is None:
        return False
    if stated_unit == source_unit:
        return converted == stated
    decimals = len(repr(stated).split(".")[1].rstrip("0")) if "." in repr(stated) else 0
    step = 10.0**-decimals
    # Rounded as written, or within 2 % (a conversion rounded to a round figure). A
    # small whole number rounds coarsely: the rounding may not move the value by more
    # than a tenth (20,000 h are no "2 years", though 2.28 rounds to 2).
    error = abs(converted - stated)
    rounded = error <= step / 2 + 1e-9 and error <= 0.1 * abs(converted) * (1 + 1e-9)
    return rounded or error <= 0.02 * abs(stated)
