"""The one way pdfdesk runs isolated work in a child process: priority, deadline, memory cap, kill.

MuPDF runs on untrusted files. A hostile page can make it loop, recurse until the stack overflows or
allocate without end, and it keeps Python's GIL while it works. Work that must not take the caller
down with it, or hold up the window's UI thread, runs in a child process, in one of two shapes:

* `ChildWorker`: a long-lived request/response process (tool calls, the viewer's page renderer)
  that keeps its caches between requests;
* `run_job`: a one-shot child (an index build) that streams messages back and returns a value.

Both share what every child needs, so no caller writes it again:

* a priority (`Priority`): background work yields the CPU and the disk to the window;
* a memory cap where the OS has one (RLIMIT_AS, else RLIMIT_DATA; Windows has none without a
  job object, and there the deadline still bounds the work);
* a deadline, after which the child is killed; a caller's cancel event, which kills it too;
* one coded outcome when the child fails: `ChildFailed` (a `PdfDeskError`, code pdf_error,
  reason deadline / crash / memory / start / gone), and `JobCancelled` when the caller cancelled;
* the parent's settings in the child: `get_config()`, its environment (PDFDESK_HOME above all)
  and working folder; SIGINT ignored (Ctrl+C in a terminal is the parent's to handle).

A child whose parent dies notices at its next read or write on the pipe (an idle worker at once, a
job at its next `send`) and exits; the children of a parent that exits normally are killed by
multiprocessing (they are daemons). A parent done with a worker `stop()`s it rather than `kill()`s
it: a child that exits by itself unlinks the named semaphores its libraries made, and a killed one
leaves them to the resource tracker, which reports them as leaked when the parent exits. Children
start no thread of their own to watch the parent: under RLIMIT_AS a thread costs glibc a 64 MB
malloc arena of address space, a quarter of a small cap.

Start method: forkserver where the platform has it, else spawn; never fork, since the window's
process runs Qt threads and a forked copy of a multi-threaded process can deadlock on any lock a
thread held at the fork. Forkserver children start in milliseconds (a fork of a small server
process that never ran Qt) but inherit that server's environment as it was when it started, which
is why the environment and working folder are sent along. A frozen (PyInstaller) bundle starts
the fork server and spawn children by re-running its own executable; its entry point calls
`multiprocessing.freeze_support()`, which PyInstaller's runtime hook extends to catch both.

Where each part lives: `limits` (priority, memory cap), `process` (start method, what a child
takes over, reaping, the detached indexer), `channel` (the pipe, deadline and cancel), `failures` (the coded outcomes),
`worker` (ChildWorker), `job` (run_job). Callers import from the package.
"""

from pdfdesk.core.childproc.failures import CRASH, DEADLINE, GONE, OUT_OF_MEMORY, START, ChildFailed, JobCancelled
from pdfdesk.core.childproc.job import run_job
from pdfdesk.core.childproc.limits import Priority, io_priority, limit_memory, lower_priority
from pdfdesk.core.childproc.process import START_METHOD, start_detached_pdfdesk
from pdfdesk.core.childproc.worker import ChildWorker, RawReply

__all__ = [
    "CRASH", "DEADLINE", "GONE", "OUT_OF_MEMORY", "START", "START_METHOD", "ChildFailed", "ChildWorker",
    "JobCancelled", "Priority", "RawReply", "io_priority", "limit_memory", "lower_priority", "run_job",
    "start_detached_pdfdesk",
]
