"""What a child may take of the machine: its CPU and I/O priority and its memory cap.

A child lowers its own priority and caps its own memory first thing after it starts (the parent
must not: both are inherited by everything the process starts later). Everything here acts on the
calling process and skips silently what the platform refuses or lacks.
"""

from __future__ import annotations

import ctypes
import enum
import os
import platform
import sys
from typing import Final


class Priority(enum.Enum):
    """How much of the machine a child may take from the window."""

    NORMAL = "normal"          # as the parent: a tool call someone is waiting for
    BACKGROUND = "background"  # nice 10 and the lowest best-effort I/O level: the viewer's renders, keyword indexing
    IDLE = "idle"              # nice 19 and the idle I/O class: only when nothing else wants the CPU or the disk


_NICENESS: Final = {Priority.BACKGROUND: 10, Priority.IDLE: 19}

# Linux I/O priority (linux/ioprio.h): class << 13 | level; best-effort levels run 0 (high) to 7 (low)
_IOPRIO_CLASS_SHIFT: Final = 13
_IOPRIO_CLASS_BE: Final = 2
_IOPRIO_CLASS_IDLE: Final = 3
_IOPRIO_WHO_PROCESS: Final = 1
_IOPRIO_SYSCALLS: Final = {  # machine -> (ioprio_set, ioprio_get); glibc has no wrapper for them
    "x86_64": (251, 252), "amd64": (251, 252), "i386": (289, 290), "i686": (289, 290),
    "aarch64": (30, 31), "arm64": (30, 31), "riscv64": (30, 31), "loongarch64": (30, 31),
    "armv7l": (314, 315), "armv6l": (314, 315), "ppc64le": (273, 274), "ppc64": (273, 274), "s390x": (282, 283),
}


def lower_priority(priority: Priority) -> None:
    """Lower the calling process's CPU and I/O priority to `priority` (never raises it: NORMAL keeps
    what it has). Call it in the main thread before starting others: Linux keeps the nice value per
    thread and new threads inherit it. Anything the platform refuses or lacks is skipped silently:
    a lower priority is a courtesy, never a reason to fail the work."""
    if priority is Priority.NORMAL:
        return
    if os.name == "nt":
        _lower_windows_priority(priority)
        return
    try:
        target = _NICENESS[priority]
        if os.getpriority(os.PRIO_PROCESS, 0) < target:
            os.setpriority(os.PRIO_PROCESS, 0, target)
    except (AttributeError, OSError):
        pass
    if sys.platform.startswith("linux"):
        level = (_IOPRIO_CLASS_IDLE << _IOPRIO_CLASS_SHIFT) if priority is Priority.IDLE \
            else (_IOPRIO_CLASS_BE << _IOPRIO_CLASS_SHIFT) | 7
        _ioprio_syscall(0, level)
    elif sys.platform == "darwin":
        _lower_macos_io(priority)


def io_priority() -> tuple[int, int] | None:
    """The calling thread's Linux I/O priority as (class, level) — class 1 realtime, 2 best-effort,
    3 idle; 0 means "none set", which the kernel derives from the nice value — or None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    value = _ioprio_syscall(1, None)
    if value is None or value < 0:
        return None
    return value >> _IOPRIO_CLASS_SHIFT, value & ((1 << _IOPRIO_CLASS_SHIFT) - 1)


def _ioprio_syscall(which: int, level: int | None) -> int | None:
    """ioprio_set (which=0, level) or ioprio_get (which=1) on the calling thread; None when the
    machine's syscall number is unknown or libc cannot be loaded."""
    numbers = _IOPRIO_SYSCALLS.get(platform.machine().lower())
    if numbers is None:
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        args = (_IOPRIO_WHO_PROCESS, 0) if level is None else (_IOPRIO_WHO_PROCESS, 0, level)
        return int(libc.syscall(ctypes.c_long(numbers[which]), *(ctypes.c_int(a) for a in args)))
    except (OSError, AttributeError):
        return None


def _lower_windows_priority(priority: Priority) -> None:
    """Windows: the below-normal priority class for BACKGROUND; for IDLE the idle class plus
    background mode, which also lowers the process's I/O and memory priority."""
    try:
        kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)  # type: ignore[attr-defined]
        kernel32.GetCurrentProcess.restype = ctypes.c_void_p
        kernel32.SetPriorityClass.argtypes = (ctypes.c_void_p, ctypes.c_uint32)
        process = kernel32.GetCurrentProcess()
        if priority is Priority.BACKGROUND:
            kernel32.SetPriorityClass(process, 0x00004000)  # BELOW_NORMAL_PRIORITY_CLASS
        else:
            kernel32.SetPriorityClass(process, 0x00000040)  # IDLE_PRIORITY_CLASS
            kernel32.SetPriorityClass(process, 0x00100000)  # PROCESS_MODE_BACKGROUND_BEGIN
    except (AttributeError, OSError):
        pass


def _lower_macos_io(priority: Priority) -> None:
    """macOS: setiopolicy_np(IOPOL_TYPE_DISK, IOPOL_SCOPE_PROCESS, UTILITY or THROTTLE)."""
    try:
        libc = ctypes.CDLL(None)
        libc.setiopolicy_np(0, 0, 3 if priority is Priority.IDLE else 4)
    except (OSError, AttributeError):
        pass


def limit_memory(megabytes: int | None) -> None:
    """Cap the calling process's memory at `megabytes` (None or 0: no cap): an allocation past it
    fails (MemoryError in Python, a failed malloc in MuPDF) instead of swapping the machine to a
    halt. RLIMIT_AS where the OS enforces it (Linux), else RLIMIT_DATA (macOS refuses AS); nothing
    on Windows, where the deadline still bounds the work."""
    if not megabytes:
        return
    try:
        import resource
    except ImportError:
        return
    limit = megabytes * 1024 * 1024
    for name in ("RLIMIT_AS", "RLIMIT_DATA"):
        kind = getattr(resource, name, None)
        if kind is None:
            continue
        try:
            _soft, hard = resource.getrlimit(kind)
            resource.setrlimit(kind, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))
            return
        except (ValueError, OSError):
            continue
