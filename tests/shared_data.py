"""The development data beside the checkout (`../shared`), or a clean skip naming what is missing.

A fresh clone has no `../shared`; tests that need it skip with the folder they looked for
instead of failing, so the README's test command passes on a new machine.
"""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def shared_dir(*parts: str) -> Path:
    """`../shared/<parts>`; skips the calling test module when the folder is not there."""
    folder = SHARED.joinpath(*parts)
    if not folder.is_dir():
        pytest.skip(f"needs the data folder {folder} (not in a fresh clone)",
                    allow_module_level=True)  # fmt: skip
    return folder
