"""A sentence ending by introducing a block — a command, a configuration, a list — is
answered with that block as it stands in its chunk, bounded; one whose block its chunk
does not hold is no answer on its own (issue 27: "… look like this: [1]")."""

from __future__ import annotations

from handmade import document, evidence, perceive

from ragcore.agents.generation.extractive import ExtractiveGenerator, _introduced

CALIBRATION = document("moteus/docs_troubleshooting_calibration", "Troubleshooting Calibration")
STICTION = (
    "In some cases you can increase the power used during the lock-in phase of calibration "
    "by passing an extra option to moteus_tool --calibrate:\n\n--cal-motor-power 5\n\n"
    "The units are watts, and 5 is the default."
)


def test_the_block_a_sentence_introduces_is_cited_with_it():
    question = (
        "Calibration keeps failing on my moteus because of stiction. Is there a way to push "
        "more power during the lock-in phase of calibration?"
    )
    draft = ExtractiveGenerator().generate(
        question, [evidence(1, STICTION, CALIBRATION)], perceive(question)
    )
    assert "moteus_tool --calibrate: --cal-motor-power 5 [1]" in draft.text


def test_a_block_is_a_paragraph_or_a_list_and_no_longer_than_its_bound():
    text = "Do this:\n\n- first\n\n- second\n\nThen rest."
    assert _introduced(text, text.index(":") + 1) == "- first - second"
    assert _introduced("Do this:", len("Do this:")) is None  # the chunk ends there
    assert _introduced("Do this:\n\n## Next", len("Do this:")) is None  # a heading follows
    long = "Do this:\n\n" + "x " * 300
    assert _introduced(long, len("Do this:")) is None


def test_a_sentence_whose_block_its_chunk_lacks_is_not_chosen_over_one_that_answers():
    question = "what should my ups.conf look like for the 940-0095B cable in smart mode?"
    faq = document("nut-doc/faq", "NUT FAQ")
    cut = "The 940-0095B cable works in smart mode. Edit your ups.conf to look like this:"
    draft = ExtractiveGenerator().generate(question, [evidence(1, cut, faq)], perceive(question))
    assert "look like this:" not in draft.text


def test_a_sentence_telling_of_the_asked_option_by_a_pronoun_is_cited_after_its_naming():
    question = "What's the -R / --braking-resistor option of gs2_vfd for?"
    page = document("linuxcnc-doc-en/linuxcnc_manual_pages", "LinuxCNC Manual Pages")
    text = (
        "OPTIONS\n\n−R, −−braking−resistor This argument should be used when a braking "
        "resistor is installed on the GS2 VFD. It disables deceleration over-voltage stall "
        "prevention, allowing the VFD to keep braking."
    )
    draft = ExtractiveGenerator().generate(question, [evidence(1, text, page)], perceive(question))
    assert "It disables deceleration" in draft.text
    assert "−R, −−braking−resistor" in draft.text  # what "it" is, named
