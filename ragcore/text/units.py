"""Which units measure the same thing, and converting a value between them.

Canonical unit spellings are those of ``ragcore.text.quantities``. Two quantities
agree when they are equal after conversion, up to the precision the stated one is
written with ("145 psi" states 10 bar: 145.04 rounds to 145).
"""

from __future__ import annotations

# unit -> (dimension, factor to the dimension's base unit)
_LINEAR: dict[str, tuple[str, float]] = {
    "bar": ("pressure", 1e5),
    "psi": ("pressure", 6894.757293),
    "kPa": ("pressure", 1e3),
    "mbar": ("pressure", 100.0),
    "MPa": ("pressure", 1e6),
    "Pa": ("pressure", 1.0),
    "L/min": ("flow", 1 / 60_000),
    "m³/min": ("flow", 1 / 60),
    "m³/h": ("flow", 1 / 3600),
    "m³/s": ("flow", 1.0),
    "L/s": ("flow", 1e-3),
    "L/h": ("flow", 1 / 3_600_000),
    "mg/L": ("concentration", 1e-3),
    "µg/L": ("concentration", 1e-6),
    "gal/min": ("flow", 3.785411784e-3 / 60),
    "cfm": ("flow", 0.028316846592 / 60),
    "L": ("volume", 1e-3),
    "gal": ("volume", 3.785411784e-3),
    "m³": ("volume", 1.0),
    "ft³": ("volume", 0.028316846592),
    "kg/h": ("mass flow", 1.0),
    "kg/min": ("mass flow", 60.0),
    "t/h": ("mass flow", 1000.0),
    "N·m": ("torque", 1.0),
    "lbf·ft": ("torque", 1.3558179483),
    "kg": ("mass", 1.0),
    "g": ("mass", 1e-3),
    "lb": ("mass", 0.45359237),
    "t": ("mass", 1000.0),
    "W": ("power", 1.0),
    "kW": ("power", 1000.0),
    "hp": ("power", 745.699872),
    "MW": ("power", 1e6),
    "kWh": ("energy", 1.0),
    "MWh": ("energy", 1000.0),
    "V": ("voltage", 1.0),
    "kV": ("voltage", 1000.0),
    "Ω": ("resistance", 1.0),
    "kΩ": ("resistance", 1e3),
    "MΩ": ("resistance", 1e6),
    "mΩ": ("resistance", 1e-3),
    "ms": ("duration", 1 / 3_600_000),
    "s": ("duration", 1 / 3600),
    "min": ("duration", 1 / 60),
    "h": ("duration", 1.0),
    "days": ("duration", 24.0),
    "weeks": ("duration", 168.0),
    "months": ("duration", 730.5),
    "years": ("duration", 8766.0),
    "m/s": ("speed", 1.0),
    "km/h": ("speed", 1 / 3.6),
    "m/min": ("speed", 1 / 60),
    "mm": ("length", 1e-3),
    "cm": ("length", 1e-2),
    "m": ("length", 1.0),
    "ft": ("length", 0.3048),
    "in": ("length", 0.0254),
}
_TEMPERATURE = {"°C": (1.0, 0.0), "°F": (5 / 9, -32 * 5 / 9)}  # to °C: value * a + b


def dimension(unit: str) -> str:
    """What ``unit`` measures; a unit with no known relatives is its own dimension."""
    if unit in _TEMPERATURE:
        return "temperature"
    return _LINEAR[unit][0] if unit in _LINEAR else unit


def convert(value: float, unit: str, to: str) -> float | None:
    """``value`` in ``unit`` expressed in ``to``; None when they measure different things."""
    if unit == to:
        return value
    if unit in _TEMPERATURE and to in _TEMPERATURE:
        a, b = _TEMPERATURE[unit]
        celsius = value * a + b
        a, b = _TEMPERATURE[to]
        return (celsius - b) / a
    if unit in _LINEAR and to in _LINEAR and _LINEAR[unit][0] == _LINEAR[to][0]:
        return value * _LINEAR[unit][1] / _LINEAR[to][1]
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
