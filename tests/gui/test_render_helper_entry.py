"""How the render helper starts: as a core.childproc child at background priority (the way every
pdfdesk child starts, in a frozen bundle through multiprocessing.freeze_support)."""

from __future__ import annotations

import os
import time

import pytest

from pdfdesk.gui.viewer import render_process


@pytest.mark.skipif(os.name != "posix", reason="the helper is POSIX-only")
def test_the_helper_runs_as_a_background_child():
    helper = render_process.RenderHelper()
    if not helper.enabled:
        pytest.skip("render helper disabled (PDFDESK_RENDER_PROCESS=0)")
    helper.start()  # returns at once; the launch runs on a thread
    try:
        deadline = time.monotonic() + 60
        while not helper.ready():
            assert time.monotonic() < deadline, "the helper did not become ready"
            time.sleep(0.02)
        pid = helper.pid()
        assert pid is not None and pid != os.getpid()
        assert os.getpriority(os.PRIO_PROCESS, pid) >= 10  # niced: the UI thread comes first
    finally:
        helper.stop()
    assert helper.pid() is None
