"""Memory of a process and of every process it started, read from /proc (Linux only).

The window's own resident set is what its budget is about, but pdfdesk also keeps a render helper,
tool workers and index builds in child processes (through a fork server): a reader's machine pays
for all of them. RSS counts shared libraries in every process that maps them, so a sum of RSS
overstates the tree; each child's private memory (pages no other process shares) and the sum of
proportional set sizes (PSS, shared pages split between their users) are printed beside it.
Used by gui_bench.py (the view and its helpers) and screens.py (the real app, tool worker included).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path


def _status_kb(pid: int | str, field: str) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def rss_mb(pid: int | str = "self") -> float:
    """Resident set size (VmRSS) in MB; the peak of this process where /proc is missing."""
    kb = _status_kb(pid, "VmRSS")
    if kb is not None:
        return kb / 1024.0
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _rollup_kb(pid: int, fields: tuple[str, ...]) -> int:
    total = 0
    try:
        with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
            for line in rollup:
                if line.startswith(fields):
                    total += int(line.split()[1])
    except OSError:
        return 0
    return total


def private_mb(pid: int) -> float:
    """Memory only this process holds (its share of shared libraries is already in the app's RSS)."""
    return _rollup_kb(pid, ("Private_Clean:", "Private_Dirty:")) / 1024.0


def pss_mb(pid: int) -> float:
    return _rollup_kb(pid, ("Pss:",)) / 1024.0


def children(pid: int) -> list[int]:
    """Direct children of `pid` (every thread's list: a child belongs to the thread that forked it)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text(encoding="ascii").split()]
        except OSError:
            continue
    return sorted(set(found))


def descendants(pid: int) -> list[tuple[int, int]]:
    """(child, parent) for every process below `pid`, parents before their children."""
    out: list[tuple[int, int]] = []
    stack = [pid]
    while stack:
        parent = stack.pop(0)
        for child in children(parent):
            out.append((child, parent))
            stack.append(child)
    return out


def _kind(pid: int) -> str:
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return "gone"
    if "forkserver" in cmdline:
        return "forked child" if "forkserver" in _parent_cmdline(pid) else "fork server"
    if "resource_tracker" in cmdline:
        return "resource tracker"
    return os.path.basename(cmdline.split(" ", 1)[0]) or "?"


def _parent_cmdline(pid: int) -> str:
    try:
        ppid = Path(f"/proc/{pid}/stat").read_text(encoding="ascii").rsplit(")", 1)[1].split()[1]
        return Path(f"/proc/{ppid}/cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
    except (OSError, IndexError):
        return ""


@dataclass(frozen=True)
class Member:
    pid: int
    parent: int
    label: str
    rss_mb: float
    private_mb: float
    pss_mb: float


def snapshot(root: int | None = None, labels: dict[int, str] | None = None) -> list[Member]:
    """The root process first, then every descendant; `labels` names the pids the caller knows."""
    root = os.getpid() if root is None else root
    labels = labels or {}
    members = [Member(root, 0, labels.get(root, "window"), rss_mb(root), private_mb(root), pss_mb(root))]
    for pid, parent in descendants(root):
        members.append(Member(pid, parent, labels.get(pid) or _kind(pid), rss_mb(pid), private_mb(pid), pss_mb(pid)))
    return [m for m in members if m.rss_mb > 0 or m.pid == root]


class PeakTracker:
    """Keeps each process's largest figures over repeated snapshots, so a child that comes and goes
    (an index build) is still reported; `phase` names the children first seen while it is set."""

    def __init__(self) -> None:
        self.peaks: dict[int, Member] = {}
        self.phase = ""

    def record(self, members: list[Member]) -> None:
        for member in members:
            old = self.peaks.get(member.pid)
            if old is None:
                label = f"{member.label} ({self.phase})" if self.phase and member.parent else member.label
                self.peaks[member.pid] = replace(member, label=label)
            else:
                self.peaks[member.pid] = replace(old, rss_mb=max(old.rss_mb, member.rss_mb),
                                                 private_mb=max(old.private_mb, member.private_mb),
                                                 pss_mb=max(old.pss_mb, member.pss_mb))

    def members(self) -> list[Member]:
        return list(self.peaks.values())


def tree_lines(members: list[Member], indent: str = "    ") -> list[str]:
    """A total line and one line per process (window first), for a bench report."""
    if not members:
        return []
    total_rss = sum(m.rss_mb for m in members)
    total_pss = sum(m.pss_mb for m in members)
    children_private = sum(m.private_mb for m in members[1:])
    total = (f"{indent}process tree: {len(members)} processes, sum of RSS {total_rss:.1f} MB, "
             f"sum of PSS {total_pss:.1f} MB; window RSS {members[0].rss_mb:.1f} MB + children's private "
             f"memory {children_private:.1f} MB = {members[0].rss_mb + children_private:.1f} MB")
    return [total] + [f"{indent}  pid {m.pid:>7}  {m.label:34.34} RSS {m.rss_mb:7.1f} MB  private "
                      f"{m.private_mb:7.1f} MB  PSS {m.pss_mb:7.1f} MB" for m in members]
