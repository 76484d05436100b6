"""Farsi names of dice rolls (DIGEST §5), kept as data in both source tables.

Table 1 ([B]) is the default: regular and complete. Table 2 ([C]) is offered as an option.
Each entry is (Cyrillic, Latin) as printed by the source.
"""

from __future__ import annotations

DiceName = tuple[str, str]

TABLE_1: dict[tuple[int, int], DiceName] = {
    (6, 6): ("ду-шеш", "du-shesh"),
    (5, 5): ("ду-пяндж", "du-panj"),
    (4, 4): ("дур-чар", "dur-char"),
    (3, 3): ("ду-сэ", "du-se"),
    (2, 2): ("ду-бара", "du-bara"),
    (1, 1): ("яган", "yagan"),
    (6, 5): ("шеш-беш", "shesh-besh"),
    (6, 4): ("шеш-чар", "shesh-char"),
    (6, 3): ("шеш-сэ", "shesh-se"),
    (6, 2): ("шеш-ду", "shesh-du"),
    (6, 1): ("шеш-як", "shesh-yak"),
    (5, 4): ("пянджи-чар", "panji-char"),
    (5, 3): ("пянджи-сэ", "panji-se"),
    (5, 2): ("пянджи-ду", "panji-du"),
    (5, 1): ("пянджи-як", "panji-yak"),
    (4, 3): ("чари-сэ", "chari-se"),
    (4, 2): ("чари-ду", "chari-du"),
    (4, 1): ("чари-як", "chari-yak"),
    (3, 2): ("сэ бай ду", "se bay du"),
    (3, 1): ("сэ-як", "se-yak"),
    (2, 1): ("ду-як", "du-yak"),
}

TABLE_2: dict[tuple[int, int], DiceName] = {
    (6, 6): ("ду-шеш", "du-shesh"),
    (5, 5): ("ду-беш", "du-besh"),
    (4, 4): ("дор-джар", "dor-jar"),
    (3, 3): ("сджют-сэ", "jut-se"),
    (2, 2): ("ду-бара", "du-bara"),
    (1, 1): ("апек", "apek"),
    (6, 5): ("шеш-беш", "shesh-besh"),
    (6, 4): ("джеар-шеш", "jar-shesh"),
    (6, 3): ("шеш-се", "shesh-se"),
    (6, 2): ("шеш-ду", "shesh-du"),
    (6, 1): ("шеш-ек", "shesh-ek"),
    (5, 4): ("пандж-джеар", "panch-jar"),
    (5, 3): ("пандж-се", "panch-se"),
    (5, 2): ("пандж-ду", "panj-du"),
    (5, 1): ("пандж-ек", "panj-ek"),
    (4, 3): ("джеар-се", "jar-se"),
    (4, 2): ("джеар-ду", "jar-du"),
    (4, 1): ("джеар-ек", "jar-ek"),
    (3, 2): ("се-бае-ду", "se-bay-du"),
    (3, 1): ("се-ек", "se-ek"),
    (2, 1): ("ики-бир", "iki-bir"),
}

TABLES = {1: TABLE_1, 2: TABLE_2}


def dice_name(dice: tuple[int, ...], table: int = 1) -> DiceName | None:
    """The Farsi name of a two-dice roll in either order; None for anything else."""
    if len(dice) != 2 or not all(1 <= d <= 6 for d in dice):
        return None
    try:
        names = TABLES[table]
    except KeyError:
        raise ValueError(f"dice name table must be 1 or 2, got {table}") from None
    return names[(max(dice), min(dice))]
