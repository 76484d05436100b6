"""Russian and English texts of the tournament page, over the board page's own texts (side
names, phases, cube words), so a table reads the same on both pages."""

from __future__ import annotations

from nardy_pi.web.i18n import texts as board_texts

CLUB_MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "club_title": "Club tables",
        "tables": "Tables",
        "no_tables": "No table has reported yet",
        "online": "online",
        "offline": "offline",
        "broker": "Broker",
        "no_state": "No game yet",
        "updated": "updated {t}",
        "turn_of": "{name} to play",
        "chouette_line": "Chouette, game {n}: box {box}, captain {captain}",
    },
    "ru": {
        "club_title": "Столы клуба",
        "tables": "Столы",
        "no_tables": "Пока ни один стол не на связи",
        "online": "на связи",
        "offline": "не в сети",
        "broker": "Брокер",
        "no_state": "Игры пока нет",
        "updated": "обновлено {t}",
        "turn_of": "ходит {name}",
        "chouette_line": "Шуэт, партия {n}: бокс {box}, капитан {captain}",
    },
}


def club_texts(language: str) -> dict[str, str]:
    own = CLUB_MESSAGES.get(language, CLUB_MESSAGES["en"])
    return {**board_texts(language), **own}
