"""A bounded fuzz run of every parser (the full run, 100,000 inputs each, is
bench/fuzz_parsers.py): only ValueErrors, never another exception."""

from __future__ import annotations

import pytest

from tests.fuzz.parsers import TARGETS, fuzz

#: inputs per parser here: a few seconds each on a loaded Pi-class machine
BOUNDED = {"batch line": 300, ".mat": 1500, "config": 2000, "control json": 2000}


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_parser_survives_mutated_input(name: str) -> None:
    result = fuzz(name, BOUNDED.get(name, 3000), seed=1)
    assert result.tried >= 300
    assert not result.failures, result.failures[:3]


@pytest.mark.parametrize("name", sorted(TARGETS))
def test_the_seeds_are_valid_input(name: str) -> None:
    func, seeds = TARGETS[name]
    for seed in seeds:
        func(seed)  # mutations start from input the parser accepts
