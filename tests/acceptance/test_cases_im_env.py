"""Environment and running acceptance logs (IM.ENV: the weather roll, high explosive in mud and deep snow, skis
inherent to Russian troops; IM.OPTMOVE.RUN.FIRE and RUN.TARGET; the Bridge Layer's bridge crossed as clear): each
gives exactly its expected findings.

The logs in tests/acceptance/cases_im_env/ are written by build_cases.py from the rulebook, each case naming
its passage; tests/acceptance/case_folders.py says how a case is judged.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.acceptance.case_folders import case_names, check_case, check_expectations_exist

CASES = Path(__file__).resolve().parent / "cases_im_env"


def test_every_case_has_its_expectations():
    check_expectations_exist(CASES, 10)


@pytest.mark.parametrize("name", case_names(CASES))
def test_case_gives_expected_findings(name):
    check_case(CASES, name)
