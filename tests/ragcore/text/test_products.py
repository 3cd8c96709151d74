"""Products and versions named without a model number (``text.products``), and finding them
again in another text whatever the case and separators."""

from __future__ import annotations

import pytest

from ragcore.text.products import names_in, product_names


@pytest.mark.parametrize(
    ("question", "names"),
    [
        ("What's the max input voltage of the ODrive Pro?", ("ODrive Pro",)),
        ("What connector is on the moteus-c1 r1.2 board?", ("moteus-c1", "r1.2")),
        ("Which battery do I order for a Smart-UPS 1500?", ("Smart-UPS 1500",)),
        ("How much current can the UR e-Series tool flange supply?", ("e-Series",)),
        ("What's the operating temperature range of the roboRIO?", ("roboRIO",)),
        # Units, families, things and model numbers are no product names here.
        ("What is the maximum inlet pressure of the WS-50 in kPa?", ()),
        ("How often must the filter on DR-series dryers be cleaned?", ()),
        ("What is the X-axis travel of the HMC-500?", ()),
        ("What is the rated residual operating current of the RCDs?", ()),
    ],
)
def test_a_question_names_products_and_versions_without_model_numbers(question, names):
    assert product_names(question) == names


def test_a_name_is_found_whatever_its_case_and_separators():
    assert names_in("Smart-UPS", "all SMART UPS models")
    assert names_in("e-Series", "ur_robot_driver_doc_install_urcap_e_series")
    assert names_in("ODrive Pro", "The ODrive Pro takes up to 58 V.")
    assert not names_in("ODrive Pro", "The ODrive v3.6 takes up to 56 V; a pro tip: …")
    assert not names_in("roboRIO", "Normal operating temperature exceeded")


def test_a_version_is_found_with_or_without_its_letter_never_inside_another_number():
    assert names_in("v3.6", "ODrive V3.6 56V")
    assert names_in("r1.2", "moteus-c1 rev 1.2")
    assert names_in("v3.6", "hardware 3.6")
    assert not names_in("v3.6", "hardware v3.61")
    assert not names_in("r1.2", "moteus-c1 r1.1")
