"""The parallel run keeps each unit of work on one worker (tests/conftest.py): with pytest 9,
pytest-xdist 3.8 marks the groups where pytest no longer reads them, and the tests of a
module, the JupyterLab modules among them, were spread one by one over the workers, each
starting its own server, browser and site."""

from __future__ import annotations

import pytest


def test_each_test_runs_in_its_unit_of_work(request: pytest.FixtureRequest) -> None:
    marker = request.node.get_closest_marker("xdist_group")
    assert marker is not None and marker.args == ("tests/test_parallel.py",)
    if getattr(request.config.option, "loadgroup", False):  # a worker of `pytest -n ... --dist loadgroup`
        assert request.node.nodeid.endswith("@tests/test_parallel.py"), request.node.nodeid
