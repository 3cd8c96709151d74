"""The attribute table: what a question asks about, and whether a text addresses it."""

from __future__ import annotations

import pytest

from ragcore.agents.attributes import (
    DEFAULT_ATTRIBUTES,
    addresses,
    default_attributes,
    load_attributes,
)
from ragcore.errors import ConfigError
from ragcore.text.quantities import quantities

TABLE = load_attributes()


def asked(question: str) -> list[str]:
    return [a.name for a in TABLE.asked_in(question)]


@pytest.mark.parametrize(
    ("question", "attribute"),
    [
        ("What does the CP-200 weigh?", "weight"),
        ("How heavy is the CP-200?", "weight"),
        ("Which compressor is louder?", "noise"),
        ("How often is the oil changed?", "interval"),
        ("How often must the CP-200 seal be replaced?", "interval"),
        ("What is the maximum pressure of the CP-200?", "pressure"),
        ("What flow does the CP-200 deliver?", "flow"),
    ],
)
def test_a_question_asks_for_the_attribute_its_words_name(question, attribute):
    assert asked(question) == [attribute]


def test_a_question_about_an_error_code_asks_for_no_attribute():
    assert asked("What does error E4027 mean?") == []


def test_a_pressure_vessel_is_not_a_question_about_pressure():
    assert "pressure" not in asked("How long must pressure vessel reports be kept?")


def test_a_phrase_that_names_something_else_hides_only_itself():
    assert "pressure" in asked("What is the maximum pressure of the pressure vessel?")


def test_an_operating_hours_interval_addresses_an_interval_question():
    wanted = TABLE.asked_in("How often must the CP-200 seal be replaced?")
    assert addresses(wanted, "Replace the mechanical seal every 2000 operating hours.")


def test_a_flow_figure_does_not_address_a_weight_question():
    wanted = TABLE.asked_in("What does the CP-200 weigh?")
    assert not addresses(wanted, "The CP-200 delivers a rated flow of 120 L/min at 6 bar.")


def test_a_payload_in_kilograms_does_not_address_a_weight_question():
    wanted = TABLE.asked_in("What does the RA-6 weigh?")
    assert not addresses(wanted, "The RA-6 arm handles a payload of 12 kg.")


@pytest.mark.parametrize(
    "text",
    [
        "The CP-200 weighs 38 kg.",
        "The pump has a mass of 38 kg.",
        "It is 84 lb.",
        "Without its 12 kg payload the arm weighs 30 kg.",
    ],
)
def test_a_weight_or_a_figure_in_a_mass_unit_addresses_a_weight_question(text):
    assert addresses(TABLE.asked_in("What does the CP-200 weigh?"), text)


def test_a_question_asking_for_no_attribute_is_addressed_by_any_text():
    assert addresses(TABLE.asked_in("What does error E4027 mean?"), "Anything at all.")


def test_every_shipped_unit_is_a_canonical_unit_spelling():
    for attribute in TABLE.attributes:
        for unit in attribute.units:
            assert [q.unit for q in quantities(f"5 {unit}")] == [unit], (attribute.name, unit)


def test_a_custom_attributes_file_is_loaded_and_a_phrase_needs_all_its_words(tmp_path):
    path = tmp_path / "attributes.toml"
    path.write_text('[grip]\nwords = ["grip force"]\nunits = ["N·m"]\n', encoding="utf-8")
    table = load_attributes(str(path))
    assert [a.name for a in table.asked_in("What grip force does the RA-6 have?")] == ["grip"]
    assert table.asked_in("How good is the RA-6 grip?") == ()


def test_the_default_attributes_file_is_the_shipped_one():
    assert load_attributes(DEFAULT_ATTRIBUTES) == TABLE


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ('[weight\nwords = ["weight"]\n', "not valid TOML"),
        ('[weight]\nwords = ["weight"]\nunit = ["kg"]\n', "must be a table"),
        ("weight = 3\n", "must be a table"),
        ('[weight]\nwords = "weight"\n', "[weight].words must be a list"),
        ('[weight]\nwords = [""]\n', "[weight].words must be a list"),
        ('[weight]\nwords = ["weight"]\nunits = "kg"\n', "[weight].units must be a list"),
        ('[weight]\nunits = ["kg"]\n', "[weight].words must be a list"),
        ("[weight]\nwords = []\n", "[weight].words has no content word"),
        ('[weight]\nwords = ["the", "of"]\n', "[weight].words has no content word"),
        (
            '[interval]\nwords = ["interval"]\nanswered_by_patterns = ["every ("]\n',
            "[interval].answered_by_patterns: 'every (' is not a regular expression",
        ),
        ('[comparatives]\nbigger = ["larger"]\n', "takes only 'higher' and 'lower'"),
        ('[comparatives]\nhigher = "louder"\n', "[comparatives].higher must be a list"),
        ('[comparatives.duration]\nfaster = ["x"]\n', "[comparatives.duration] takes only"),
    ],
)
def test_a_broken_attributes_file_raises_a_config_error_naming_the_file(tmp_path, content, problem):
    path = tmp_path / "broken.toml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError) as caught:
        load_attributes(path)
    assert caught.value.field == "attributes_path"
    assert caught.value.value == str(path)
    assert str(path) in str(caught.value)
    assert problem in str(caught.value)


def test_a_missing_attributes_file_raises_a_config_error_naming_the_file(tmp_path):
    path = tmp_path / "absent.toml"
    with pytest.raises(ConfigError, match="cannot read the file") as caught:
        load_attributes(path)
    assert str(path) in str(caught.value)


def test_an_attributes_file_that_is_not_utf8_raises_a_config_error(tmp_path):
    path = tmp_path / "binary.toml"
    path.write_bytes(b"\xff\xfe[weight]")
    with pytest.raises(ConfigError, match="not valid TOML") as caught:
        load_attributes(path)
    assert str(path) in str(caught.value)


def test_a_comparative_orders_figures_by_their_dimension():
    comparatives = load_attributes().comparatives
    assert comparatives.find("The KB-16 closes faster than the KB-25") == ("faster", "higher")
    assert comparatives.direction("faster", "ms") == "lower"  # a shorter closing time
    assert comparatives.direction("faster", "m/min") == "higher"  # a higher speed
    assert comparatives.direction("louder", "dB(A)") == "higher"
    assert comparatives.direction("upwards", "s") is None


# -- what an attribute's units and comparatives read ---------------------------------------
def test_capacity_in_kwh_and_voltage_in_kv_address_the_question():
    table = default_attributes()
    (capacity,) = table.asked_in("What is the energy capacity of the BX-5 battery?")
    assert capacity.addressed_by("The BX-5 stores 500 kWh.")
    (voltage,) = table.asked_in("What is the rated voltage of the TX-2?")
    assert voltage.addressed_by("The TX-2 is rated 11 kV.")


def test_a_comparative_describing_a_model_gives_way_to_the_compared_one():
    comparatives = default_attributes().comparatives
    assert comparatives.find("The smaller DR-60 turns faster, at 1,200 rpm versus 900 rpm.") == (
        "faster",
        "higher",
    )
    assert comparatives.find("The quieter AC-75 runs at 69 dB(A) versus 72 dB(A).") == (
        "quieter",
        "lower",
    )
