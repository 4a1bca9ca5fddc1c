"""The render helper starts from the `pdfdesk` executable itself (how a frozen bundle runs it)."""

from __future__ import annotations

import os
import subprocess
import sys
from multiprocessing.connection import Connection

import pytest

from pdfdesk.cli import RENDER_HELPER_FLAG
from pdfdesk.gui.viewer import render_process


def test_frozen_builds_start_the_helper_through_the_executable(monkeypatch):
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert render_process._helper_command() == [sys.executable, RENDER_HELPER_FLAG]


@pytest.mark.skipif(os.name != "posix", reason="the helper is POSIX-only")
def test_the_hidden_flag_serves_renders(text_pdf):
    request_read, request_write = os.pipe()
    reply_read, reply_write = os.pipe()
    child = subprocess.Popen([sys.executable, "-m", "pdfdesk", RENDER_HELPER_FLAG, str(request_read), str(reply_write)],
                             pass_fds=(request_read, reply_write), stdin=subprocess.DEVNULL)
    os.close(request_read)
    os.close(reply_write)
    to_child, from_child = Connection(request_write, readable=False), Connection(reply_read, writable=False)
    try:
        assert from_child.poll(60) and from_child.recv() == render_process.READY
        from pdfdesk.core.config import get_config
        from pdfdesk.core.references import resolve_reference

        to_child.send((resolve_reference(str(text_pdf), get_config()), None, 0, 1.0, None))
        assert from_child.poll(60)
        status, width, height, row_bytes = from_child.recv()
        assert (status, width, height) == ("ok", 595, 842)  # an A4 page at 72 dpi
        pixels = bytearray()
        while len(pixels) < row_bytes * height:  # the raw rows follow the header
            chunk = os.read(reply_read, row_bytes * height - len(pixels))
            assert chunk, "the helper closed the pipe before sending every row"
            pixels += chunk
        assert len(set(pixels)) > 2  # text on white, not a blank page
    finally:
        to_child.close()
        child.wait(10)
        from_child.close()
    assert child.returncode == 0
