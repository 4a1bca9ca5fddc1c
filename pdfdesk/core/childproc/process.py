"""Starting and ending a child: the start method, what the child takes over from its parent at
start (priority, memory cap, settings, environment, working folder), reaping it so no zombie
or open descriptor is left behind, and the one detached pdfdesk process (the background indexer).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from multiprocessing.process import BaseProcess
from typing import Final, Literal

from pdfdesk.core.childproc.limits import Priority, limit_memory, lower_priority
from pdfdesk.core.config import Config, get_config, set_config

START_METHOD: Final[Literal["forkserver", "spawn"]] = (
    "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn")
REAP_S: Final = 2.0  # how long a dead child gets to report its exit status (forkserver: a moment later)


def child_context() -> multiprocessing.context.ForkServerContext | multiprocessing.context.SpawnContext:
    """The multiprocessing context children start in (START_METHOD), typed as the context it is."""
    if START_METHOD == "forkserver":
        return multiprocessing.get_context("forkserver")
    return multiprocessing.get_context("spawn")


@dataclass(frozen=True)
class Setup:
    """What the child takes over from its parent at start."""

    name: str
    priority: Priority
    memory_mb: int | None
    config: Config
    environ: dict[str, str]
    cwd: str | None


def make_setup(name: str, priority: Priority, memory_mb: int | None) -> Setup:
    try:
        cwd: str | None = os.getcwd()
    except OSError:  # the folder was deleted under us: the child keeps its own
        cwd = None
    return Setup(name, priority, memory_mb, get_config(), dict(os.environ), cwd)


def enter_child(setup: Setup) -> None:
    """First thing in every child: signals, priority, memory cap, the parent's settings."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    lower_priority(setup.priority)
    limit_memory(setup.memory_mb)
    os.environ.clear()
    os.environ.update(setup.environ)
    if setup.cwd is not None:
        try:
            os.chdir(setup.cwd)
        except OSError:
            pass
    set_config(setup.config)


def apply_settings(config: Config, home: str | None) -> None:
    """A worker's settings as of the request it is about to serve."""
    if home is None:
        os.environ.pop("PDFDESK_HOME", None)
    else:
        os.environ["PDFDESK_HOME"] = home
    set_config(config)


def reap(process: BaseProcess, kill: bool) -> int | None:
    """End `process` (SIGKILL when `kill` or when it does not exit by itself within REAP_S) and
    collect its exit status, so no zombie and no open sentinel is left. Returns the status."""
    if kill and process.exitcode is None:
        process.kill()
    process.join(REAP_S)
    if process.exitcode is None:
        process.kill()
        process.join()
    code = process.exitcode
    try:
        process.close()  # its sentinel descriptor, now rather than at garbage collection
    except ValueError:
        pass
    return code


def start_detached_pdfdesk(*arguments: str) -> bool:
    """Start `pdfdesk ARGUMENTS` as a process of its own session that outlives this one (the
    background indexer); a frozen bundle re-runs its own executable. False when it cannot start."""
    command = [sys.executable, *arguments] if getattr(sys, "frozen", False) else \
        [sys.executable, "-m", "pdfdesk", *arguments]
    try:
        subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         close_fds=True, start_new_session=True, env=dict(os.environ))
    except OSError:
        return False
    return True
