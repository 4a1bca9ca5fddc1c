"""Faults of the machine for tests: a folder that really cannot be written, and a full disk.

A read-only folder is made with file modes (a-w). Root writes through any mode (CAP_DAC_OVERRIDE),
so when the tests run as root the calling thread also gives that capability up for the duration
(Linux capabilities are per thread: other threads and later tests keep it), and a child process
is started without it (`without_override`). A full disk is simulated: every open for writing,
and every folder made, under a given folder fails with ENOSPC, as writes do on a full file system.
"""

from __future__ import annotations

import builtins
import ctypes
import ctypes.util
import errno
import io
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

CAP_DAC_OVERRIDE = 1
_CAP_VERSION_3 = 0x20080522
_PR_CAPBSET_DROP = 24


class _Header(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _Data(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)


def _set_override(enabled: bool) -> bool:
    """Turn CAP_DAC_OVERRIDE on or off in this thread's effective set; False when that cannot be done."""
    if not sys.platform.startswith("linux"):
        return False
    libc = _libc()
    header, data = _Header(_CAP_VERSION_3, 0), (_Data * 2)()
    if libc.capget(ctypes.byref(header), data) != 0:
        return False
    bit = 1 << CAP_DAC_OVERRIDE
    data[0].effective = (data[0].effective | bit) if enabled else (data[0].effective & ~bit)
    return libc.capset(ctypes.byref(header), data) == 0


def _chmod_tree(folder: Path, writable: bool) -> None:
    """Owner write permission on (or every write permission off) `folder` and all in it."""
    def change(path: Path) -> None:
        mode = path.lstat().st_mode
        if not stat.S_ISLNK(mode):
            path.chmod((mode | stat.S_IWUSR) if writable else (mode & ~0o222))

    for root, dirs, files in os.walk(folder):  # listing needs read, not write, permission: any order works
        for name in [*files, *dirs]:
            change(Path(root) / name)
    change(folder)


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """`folder` and everything in it cannot be written by this thread for the `with` block."""
    folder.mkdir(parents=True, exist_ok=True)
    _chmod_tree(folder, writable=False)
    dropped = False
    try:
        if os.geteuid() == 0:
            dropped = _set_override(False)
            if not dropped:
                pytest.skip("running as root, and CAP_DAC_OVERRIDE cannot be dropped here")
        probe = folder / ".write-probe"
        try:
            probe.touch()
        except OSError:
            pass
        else:
            probe.unlink()
            pytest.skip("the folder stays writable (the file system ignores modes)")
        yield
    finally:
        if dropped:
            _set_override(True)
        _chmod_tree(folder, writable=True)


def without_override() -> None:
    """`preexec_fn` for a child process that must not write through file modes as root: the
    capability leaves its bounding set, so the program it runs never has it."""
    if os.geteuid() == 0 and _libc().prctl(_PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP) failed")


def _writes(mode: str) -> bool:
    return any(flag in mode for flag in "wax+")


@contextmanager
def disk_full(monkeypatch: pytest.MonkeyPatch, folder: Path) -> Iterator[None]:
    """Under `folder`, opening a file for writing and making a folder fail with ENOSPC."""
    real_open, real_mkdir, real_os_open = builtins.open, os.mkdir, os.open
    inside = os.path.abspath(folder)

    def under(path: object) -> bool:
        try:
            where = os.path.abspath(os.fspath(path))  # type: ignore[arg-type]
        except TypeError:  # a file descriptor
            return False
        return where == inside or where.startswith(inside + os.sep)

    def full(path: object) -> OSError:
        return OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), os.fspath(path))  # type: ignore[arg-type]

    def open_(file: object, mode: str = "r", *args: object, **kwargs: object) -> object:
        if _writes(mode) and under(file):
            raise full(file)
        return real_open(file, mode, *args, **kwargs)  # type: ignore[call-overload]

    def mkdir(path: object, *args: object, **kwargs: object) -> None:
        if under(path) and not os.path.isdir(path):  # type: ignore[arg-type]
            raise full(path)
        real_mkdir(path, *args, **kwargs)  # type: ignore[arg-type]

    def os_open(path: object, flags: int, *args: object, **kwargs: object) -> int:
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) and under(path):
            raise full(path)
        return real_os_open(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    with monkeypatch.context() as patch:
        patch.setattr(builtins, "open", open_)
        patch.setattr(io, "open", open_)
        patch.setattr(os, "mkdir", mkdir)
        patch.setattr(os, "open", os_open)
        yield
