"""core.childproc: children that keep to their deadline, memory cap and priority, report how they
died as a coded error, stream messages, see the parent's settings, and leave no zombie behind."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time

import pytest

from pdfdesk.core.childproc import (
    CRASH, DEADLINE, GONE, OUT_OF_MEMORY, ChildFailed, ChildWorker, JobCancelled, Priority, RawReply, io_priority,
    run_job,
)
from pdfdesk.core.config import Config, set_config
from pdfdesk.core.errors import FILE_NOT_FOUND, PDF_ERROR, PdfDeskError
from tests.core import childproc_jobs as jobs

SLACK_S = 3.0  # start-up and reaping on a busy two-core machine
POSIX = pytest.mark.skipif(os.name != "posix", reason="POSIX signals and nice values")
LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS and /proc are Linux's")


def gone(pid: int) -> bool:
    """No process with this id is left, not even a zombie waiting to be reaped."""
    if os.path.isdir("/proc"):
        return not os.path.exists(f"/proc/{pid}")
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def proc_nice(pid: int) -> int:
    """The nice value in /proc/<pid>/stat (field 19), as `ps` shows it."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return int(fields[16])


@pytest.fixture
def worker():
    child = ChildWorker(jobs.echo_handler, ("echo: ",), name="childproc-test-worker", priority=Priority.BACKGROUND,
                        memory_mb=512)
    child.start()
    assert child.wait_ready(30)
    yield child
    child.kill()


# --- run_job ----------------------------------------------------------------------------------------------
def test_messages_stream_to_the_calling_thread_and_the_result_comes_back():
    seen: list[tuple[int, int]] = []
    result = run_job(jobs.count, (5,), name="childproc-test-count",
                     on_message=lambda number: seen.append((number, threading.get_ident())))
    assert result == 15
    assert [number for number, _ in seen] == [1, 2, 3, 4, 5]
    assert {thread for _, thread in seen} == {threading.get_ident()}


def test_the_child_gets_the_parents_settings(pdfdesk_home, tmp_path, monkeypatch):
    set_config(Config(max_file_mb=123.0, semantic=False))
    monkeypatch.chdir(tmp_path)
    seen = run_job(jobs.surroundings, name="childproc-test-settings", priority=Priority.NORMAL)
    assert seen["max_file_mb"] == 123.0
    assert seen["home"] == str(pdfdesk_home)
    assert os.path.realpath(seen["cwd"]) == os.path.realpath(tmp_path)
    assert seen["sigint_ignored"]
    assert seen["pid"] != os.getpid()


@POSIX
@pytest.mark.parametrize(("priority", "nice", "io"), [(Priority.BACKGROUND, 10, (2, 7)), (Priority.IDLE, 19, (3, 0))])
def test_priority_is_applied_in_the_child(priority, nice, io):
    seen = run_job(jobs.surroundings, name="childproc-test-priority", priority=priority)
    assert seen["nice"] >= nice
    if priority is Priority.IDLE:
        assert seen["nice"] == 19
    if io_priority() is not None:  # Linux on a machine whose ioprio syscall numbers we know
        assert seen["io"] == io


def test_deadline_kills_a_sleeping_job_with_a_coded_error():
    pids: list[int] = []
    started = time.monotonic()
    with pytest.raises(ChildFailed) as caught:
        run_job(jobs.sleep, (30,), name="childproc-test-sleeper", deadline_s=1.0, on_message=pids.append)
    assert time.monotonic() - started < 1.0 + SLACK_S
    error = caught.value
    assert error.code == PDF_ERROR and error.reason == DEADLINE
    assert "stopped after 1 s" in error.message
    assert error.to_details()["timeout_s"] == 1.0 and error.to_details()["elapsed_s"] >= 1.0
    assert all(gone(pid) for pid in pids)


@POSIX
def test_a_segfault_is_a_coded_crash():
    with pytest.raises(ChildFailed) as caught:
        run_job(jobs.segfault, name="childproc-test-segfault")
    error = caught.value
    assert error.code == PDF_ERROR and error.reason == CRASH
    assert "crashed (signal 11)" in error.message and error.to_details()["exit"] == "signal 11"


@LINUX
def test_the_memory_cap_turns_a_huge_allocation_into_a_coded_error():
    with pytest.raises(ChildFailed) as caught:
        run_job(jobs.allocate, (2048,), name="childproc-test-memory", memory_mb=256)
    error = caught.value
    assert error.code == PDF_ERROR and error.reason == OUT_OF_MEMORY
    assert "ran out of memory" in error.message and error.to_details()["memory_mb"] == 256
    assert run_job(jobs.allocate, (16,), name="childproc-test-memory", memory_mb=256) == 16 * 1024 * 1024


def test_cancel_kills_the_job():
    cancel = threading.Event()
    pids: list[int] = []

    def arrived(pid: int) -> None:  # the job is running: cancel it from another thread
        pids.append(pid)
        threading.Timer(0.1, cancel.set).start()

    started = time.monotonic()
    with pytest.raises(JobCancelled):
        run_job(jobs.sleep, (30,), name="childproc-test-cancel", cancel=cancel, on_message=arrived)
    assert time.monotonic() - started < SLACK_S
    assert pids and gone(pids[0])


def test_exceptions_in_the_child_come_back_coded():
    with pytest.raises(PdfDeskError) as coded:
        run_job(jobs.fail, (True,), name="childproc-test-fail")
    assert not isinstance(coded.value, ChildFailed)
    assert coded.value.code == FILE_NOT_FOUND and coded.value.extra == {"path": "nowhere.pdf"}
    with pytest.raises(PdfDeskError) as other:
        run_job(jobs.fail, (False,), name="childproc-test-fail")
    assert other.value.code == PDF_ERROR and "ValueError" in other.value.message


def test_no_child_is_left_behind():
    pids: list[int] = []
    run_job(jobs.sleep, (0,), name="childproc-test-reaped", on_message=pids.append)
    with pytest.raises(PdfDeskError):
        run_job(jobs.fail, (False,), name="childproc-test-reaped")
    with pytest.raises(ChildFailed):
        run_job(jobs.sleep, (30,), name="childproc-test-reaped", deadline_s=0.5, on_message=pids.append)
    assert pids and all(gone(pid) for pid in pids)
    assert [p for p in multiprocessing.active_children() if p.name.startswith("childproc-test")] == []


# --- ChildWorker ------------------------------------------------------------------------------------------
def test_worker_answers_and_follows_the_callers_settings(worker, pdfdesk_home, tmp_path, monkeypatch):
    assert worker.call(("echo", "hi"), 30) == "echo: hi"
    set_config(Config(max_file_mb=7.0, semantic=False))
    assert worker.call(("settings",), 30) == (7.0, str(pdfdesk_home))
    monkeypatch.setenv("PDFDESK_HOME", str(tmp_path))
    assert worker.call(("settings",), 30, config=Config(max_file_mb=9.0)) == (9.0, str(tmp_path))
    with pytest.raises(PdfDeskError) as caught:  # the handler's own error: the worker carries on
        worker.call(("fail",), 30)
    assert caught.value.code == FILE_NOT_FOUND and worker.alive()


def test_worker_raw_bytes_go_into_the_callers_buffer(worker):
    buffer = bytearray(1024)
    assert worker.call(("raw", 1024), 30, into=lambda header: buffer) == ("bytes", 1024)
    assert bytes(buffer) == bytes(range(256)) * 4
    reply = worker.call(("raw", 512), 30)
    assert isinstance(reply, RawReply) and reply.value == ("bytes", 512) and bytes(reply.data) == bytes(range(256)) * 2
    # a buffer of the wrong size: the bytes are dropped, the worker stays usable
    with pytest.raises(ValueError, match="does not take that many"):
        worker.call(("raw", 512), 30, into=lambda header: bytearray(100))
    assert worker.call(("echo", "still in step"), 30) == "echo: still in step"


@LINUX
def test_worker_priority_shows_in_proc(worker):
    assert proc_nice(worker.pid) >= 10


def test_worker_deadline_kills_it_and_start_brings_a_fresh_one(worker):
    pid = worker.pid
    started = time.monotonic()
    with pytest.raises(ChildFailed) as caught:
        worker.call(("sleep", 30), 0.5)
    assert time.monotonic() - started < 0.5 + SLACK_S
    assert caught.value.reason == DEADLINE and "stopped after 0.5 s" in caught.value.message
    assert not worker.alive() and worker.pid is None and gone(pid)
    worker.start()
    assert worker.wait_ready(30) and worker.call(("echo", "again"), 30) == "echo: again"


@POSIX
def test_worker_crash_and_death_while_idle(worker):
    with pytest.raises(ChildFailed) as crashed:
        worker.call(("segv",), 30)
    assert crashed.value.reason == CRASH and "signal 11" in crashed.value.message and not worker.alive()
    worker.start()
    assert worker.wait_ready(30)
    os.kill(worker.pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while worker.alive() and time.monotonic() < deadline:
        time.sleep(0.01)
    with pytest.raises(ChildFailed) as lost:  # the request never reached it: callers may retry
        worker.call(("echo", "anyone?"), 30)
    assert lost.value.reason == GONE


@LINUX
def test_worker_memory_cap(worker):
    with pytest.raises(ChildFailed) as caught:
        worker.call(("allocate", 2048), 30)
    assert caught.value.reason == OUT_OF_MEMORY and not worker.alive()


def test_worker_call_can_be_cancelled(worker):
    cancel = threading.Event()
    threading.Timer(0.3, cancel.set).start()
    pid = worker.pid
    with pytest.raises(JobCancelled):
        worker.call(("sleep", 30), 30, cancel=cancel)
    assert not worker.alive() and gone(pid)
