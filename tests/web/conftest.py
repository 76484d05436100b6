from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.web.helpers import Site, running_site


@pytest.fixture
def site() -> Iterator[Site]:
    with running_site() as s:
        yield s
