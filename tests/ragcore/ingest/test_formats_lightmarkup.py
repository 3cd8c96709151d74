"""reStructuredText and AsciiDoc as documentation sources publish them: sections kept,
markup gone, tables as rows."""

from __future__ import annotations

from ragcore.ingest.formats import load_bytes

RST = """\
.. _specs:

ODrive v3.6 specifications
==========================

The board runs from 12 to 56 V, see :ref:`the wiring guide <wiring>` and
`the shop <https://example.com/shop>`_. Use ``odrv0.vbus_voltage`` to read it.

.. image:: board.png
   :alt: ODrive v3.6 board, top side

Limits
------

.. list-table:: Current limits
   :header-rows: 1

   * - Variant
     - Peak current
   * - 24 V
     - 60 A
   * - 56 V
     - 120 A

.. note::
   Never exceed **56 V** on the DC bus.

.. code-block:: python

   odrv0.config.dc_max_positive_current = 10

..
   A comment that is no text.
"""

ADOC = """\
= GS2 VFD Driver
:toc:
:author: LinuxCNC

[[sec:gs2]]
== Configuration

The driver talks to the drive over link:https://example.com/modbus[Modbus RTU];
see <<sec:params,the parameter table>> and `gs2_vfd -n spindle`.

image::gs2.png[GS2 drive front panel]

[[sec:params]]
=== Parameters

.Drive parameters
|===
|Parameter |Value

|P3.00 |03
|P9.02 |19.2 kbps
|===

----
loadusr -Wn spindle-vfd gs2_vfd -n spindle-vfd
----

// a comment that is no text
"""


def test_restructuredtext_keeps_sections_and_drops_markup():
    [doc] = load_bytes(RST.encode(), "specs.rst")
    assert doc.title == "ODrive v3.6 specifications"
    text = doc.text
    assert "see the wiring guide and the shop. Use odrv0.vbus_voltage to read it." in text
    assert "ODrive v3.6 board, top side" in text
    assert "Variant: 24 V; Peak current: 60 A" in text
    assert "Variant: 56 V; Peak current: 120 A" in text
    assert "Never exceed 56 V on the DC bus." in text
    assert "odrv0.config.dc_max_positive_current = 10" in text
    for markup in (":ref:", "`_", "``", ".. ", "**", "A comment", "board.png"):
        assert markup not in text, markup
    limits = next(s for s in doc.sections if s.path[-1] == "Limits")
    assert limits.path == ("ODrive v3.6 specifications", "Limits")
    assert "120 A" in text[limits.start : limits.end]


def test_a_directive_body_keeps_its_first_letters_however_deep_it_is_indented():
    # ODrive's hoverboard guide indents a note by two spaces; three were assumed, and
    # "In order to …" became "n order to …".
    for indent in ("  ", "   ", "    "):
        body = f"{indent}In order to be compatible, add filters.\n{indent}Therefore ask.\n"
        source = ".. note::\n" + body
        [doc] = load_bytes(source.encode(), "note.rst")
        assert "In order to be compatible, add filters." in doc.text, indent
        assert "Therefore ask." in doc.text, indent


def test_asciidoc_keeps_sections_and_drops_markup():
    [doc] = load_bytes(ADOC.encode(), "gs2.adoc")
    assert doc.title == "GS2 VFD Driver"
    text = doc.text
    assert "over Modbus RTU; see the parameter table and gs2_vfd -n spindle." in text
    assert "GS2 drive front panel" in text
    assert "Parameter: P9.02; Value: 19.2 kbps" in text
    assert "loadusr -Wn spindle-vfd gs2_vfd -n spindle-vfd" in text
    for markup in ("link:", "<<", "[[", ":toc:", "image::", "a comment", "|==="):
        assert markup not in text, markup
    params = next(s for s in doc.sections if s.path[-1] == "Parameters")
    assert params.path == ("GS2 VFD Driver", "Configuration", "Parameters")
    assert "19.2 kbps" in text[params.start : params.end]


GRID = """\
Indicator lights
================

+------------+--------------+-----------------------------------+
| Light      | State        | Meaning                           |
+============+==============+===================================+
| **Power**  | Green        | Supply is good                    |
|            +--------------+-----------------------------------+
|            | Amber        | Undervoltage, outputs are         |
|            |              | disabled                          |
+------------+--------------+-----------------------------------+
| **Fault**  | Lit while the drive starts, then off             |
|            +--------------+-----------------+-----------------+
|            | 2 flashes    | Overcurrent     | Reset the drive |
+------------+--------------+-----------------+-----------------+
"""


def test_a_grid_table_cell_spanning_rows_stands_in_each_row_beside_it():
    [doc] = load_bytes(GRID.encode(), "lights.rst")
    rows = [line for line in doc.text.splitlines() if line.startswith("Light:")]
    assert rows == [
        "Light: Power; State: Green; Meaning: Supply is good",
        "Light: Power; State: Amber; Meaning: Undervoltage, outputs are disabled",
        # a cell spanning columns keeps its text whole; one split later gets a column
        "Light: Fault; State: Lit while the drive starts, then off",
        "Light: Fault; State: 2 flashes; Meaning: Overcurrent; Reset the drive",
    ]
    assert "+--" not in doc.text and "|" not in doc.text
