"""Farsi dice names (DIGEST §5) and the page texts."""

from __future__ import annotations

import re

from nardy_pi.web.dice_names import TABLE_1, TABLE_2, dice_name
from nardy_pi.web.i18n import MESSAGES, choose_language


def test_both_tables_name_all_21_rolls() -> None:
    rolls = {(a, b) for a in range(1, 7) for b in range(1, a + 1)}
    assert set(TABLE_1) == rolls
    assert set(TABLE_2) == rolls


def test_names_from_the_digest_in_either_order() -> None:
    assert dice_name((6, 5)) == ("шеш-беш", "shesh-besh")
    assert dice_name((5, 6)) == ("шеш-беш", "shesh-besh")
    assert dice_name((1, 1)) == ("яган", "yagan")
    assert dice_name((1, 1), table=2) == ("апек", "apek")
    assert dice_name((1, 2), table=2) == ("ики-бир", "iki-bir")
    assert dice_name(()) is None
    assert dice_name((6, 6, 6, 6)) is None


def test_table_one_is_regular() -> None:
    # DIGEST §5 prefers table 1 because it is regular: every non-double roll starts with
    # the Farsi word of its larger die.
    prefix = {6: "шеш", 5: "пяндж", 4: "чар", 3: "сэ", 2: "ду"}
    for (high, low), (cyrillic, _) in TABLE_1.items():
        if high != low:
            assert cyrillic.startswith(prefix[high]), cyrillic


def test_languages_share_keys_and_fields() -> None:
    assert set(MESSAGES["en"]) == set(MESSAGES["ru"])
    for key, text in MESSAGES["en"].items():
        fields = set(re.findall(r"\{(\w+)\}", text))
        # Russian may leave out a field that carries English (a refusal's detail), never
        # ask for one the English text does not have.
        assert set(re.findall(r"\{(\w+)\}", MESSAGES["ru"][key])) <= fields, key


def test_language_choice_order() -> None:
    assert choose_language("ru", "en", "en") == "ru"
    assert choose_language("xx", "ru", "en") == "ru"
    assert choose_language(None, None, "ru") == "ru"
    assert choose_language(None, None, None) == "en"
