from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.club.mosquitto import Mosquitto


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Mosquitto]:
    folder = tmp_path / "broker"
    folder.mkdir()
    mosquitto = Mosquitto(folder)
    mosquitto.start()
    yield mosquitto
    mosquitto.stop()
