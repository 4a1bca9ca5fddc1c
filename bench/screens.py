"""Look at the real window the way a person would: screenshots of each state, at several widths.

Starts a virtual X screen (Xvfb), runs the real app on it (`python -m pdfdesk FILE...`, its data in a
throwaway folder, no API keys, so the agent answers offline) and drives it with xdotool as a user
would, with keys and the mouse — nothing inside the app is patched. For each width it saves:
  01-opened          the bundled sample and a generated long document open in tabs
  02-search          a search typed into the search panel, results listed
  03-ask             a question asked in the chat pane, the offline answer with its citations
  04-highlight-notes text dragged over in the page, highlighted (Ctrl+Shift+H), the Notes panel shown
  05-menu-view       the View menu open (icons beside the entries)
  06-menu-review     the Review menu open
  07-long-document   the second tab, page 150, zoomed in
  08-restarted       quit (Ctrl+Q) and started again without files: what the session brings back
and prints the app's process tree memory after the search and the question. Every picture is meant
to be looked at: clipped text, unreadable colours and missing icons show up here, not in a test.
Needs Xvfb, xdotool and ImageMagick's `import` (or xwd + convert); without them it prints
"skipped" and exits 0.  Debian: apt-get install -y xvfb xdotool x11-apps imagemagick
The screenshots themselves are read with PyMuPDF, not with an image program.
Usage: python bench/screens.py [--out DIR] [--widths 1000,1400,1600] [--height 900] [--pages N] [--dark]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bench.process_memory import snapshot, tree_lines  # noqa: E402

DEFAULT_WIDTHS = (1000, 1400, 1600)
HEIGHT = 900
LONG_PAGES = 400
START_TIMEOUT_S = 60.0
QUIT_TIMEOUT_S = 30.0
SEARCH_QUERY = "keyboard shortcuts"
QUESTION = "What does the viewer do while a new zoom level renders?"
INSTALL_HINT = "Debian/Ubuntu: apt-get install -y xvfb xdotool x11-apps imagemagick"


def widths(text: str) -> list[int]:
    """"1000,1400" -> [1000, 1400]; each width between 640 and 3840 pixels."""
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of pixel widths: {text!r}") from None
    if not values or any(not 640 <= v <= 3840 for v in values):
        raise argparse.ArgumentTypeError(f"widths must be 640..3840 pixels: {text!r}")
    return values


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, help="folder for the PNGs (default: a new temporary folder)")
    parser.add_argument("--widths", type=widths, default=list(DEFAULT_WIDTHS), help="window widths, comma-separated")
    parser.add_argument("--height", type=int, default=HEIGHT, help="window height in pixels")
    parser.add_argument("--pages", type=int, default=LONG_PAGES, help="pages of the generated long document")
    parser.add_argument("--python", default=None, help="interpreter that runs the app (default: the repo's .venv)")
    parser.add_argument("--dark", action="store_true", help="ask for the dark scheme (GTK theme Adwaita:dark)")
    parser.add_argument("--settle", type=float, default=1.0, help="scale every wait by this factor (slow machines)")
    return parser.parse_args(argv)


def missing_tools() -> list[str]:
    """The programs the script needs that are not on PATH. The screen is grabbed by ImageMagick's
    `import`, else by xwd, whose dump only ImageMagick's `convert` turns into a PNG (neither PyMuPDF
    nor Qt reads the XWD format): convert is needed only on that second way."""
    missing = [tool for tool in ("Xvfb", "xdotool") if shutil.which(tool) is None]
    if shutil.which("import") is None:
        fallback = [tool for tool in ("xwd", "convert") if shutil.which(tool) is None]
        if fallback:
            missing.append("import (ImageMagick) or " + " + ".join(fallback))
    return missing


VIEWER_GREY = (82, 86, 89)  # the document view's background around the pages


def row_colours(png: Path, y: int, width: int) -> list[tuple[int, ...]]:
    """The RGB colours of the first `width` pixels of row `y` of a PNG, read by PyMuPDF (the app's
    own dependency), so that looking at a screenshot needs no image program; [] for a row outside it."""
    import pymupdf

    pixmap = pymupdf.Pixmap(str(png))
    if pixmap.n - pixmap.alpha != 3:  # a grey PNG: compared in RGB all the same
        pixmap = pymupdf.Pixmap(pymupdf.csRGB, pixmap)
    if not 0 <= y < pixmap.height:
        return []
    return [tuple(pixmap.pixel(x, y)[:3]) for x in range(min(width, pixmap.width))]


def page_span(png: Path, y: int, width: int) -> tuple[int, int] | None:
    """Left and right x of the widest page in the document view on row `y` of a screenshot: the
    widest stretch of other colours with the view's grey on both sides (docks have no such grey)."""
    grey = [all(abs(c - g) <= 12 for c, g in zip(rgb, VIEWER_GREY, strict=False)) for rgb in row_colours(png, y, width)]
    best: tuple[int, int] | None = None
    start = None
    for x in range(1, len(grey)):
        if grey[x - 1] and not grey[x]:
            start = x
        elif start is not None and not grey[x - 1] and grey[x]:
            if best is None or x - start > best[1] - best[0]:
                best = (start, x - 1)
            start = None
    return best


class VirtualScreen:
    """An Xvfb server on the first free display number (Xvfb picks it and reports it on a pipe)."""

    def __init__(self, width: int, height: int) -> None:
        read, write = os.pipe()
        self.process = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", f"{width}x{height}x24",
                                         "-nolisten", "tcp"], pass_fds=(write,), stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            self.process.kill()
            raise RuntimeError("Xvfb did not start")
        self.display = f":{number}"

    def env(self) -> dict[str, str]:
        return {**os.environ, "DISPLAY": self.display}

    def xdotool(self, *args: str) -> str:
        done = subprocess.run(["xdotool", *args], env=self.env(), capture_output=True, text=True, timeout=30,
                              check=False)  # a search that finds nothing exits 1
        return done.stdout.strip()

    def shoot(self, path: Path) -> Path:
        if shutil.which("import"):
            subprocess.run(["import", "-window", "root", str(path)], env=self.env(), check=True, timeout=60)
        else:
            dump = subprocess.run(["xwd", "-root", "-silent"], env=self.env(), capture_output=True, check=True)
            subprocess.run(["convert", "xwd:-", f"png:{path}"], input=dump.stdout, check=True, timeout=60)
        print(f"  saved {path}", flush=True)
        return path

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()


class RunningApp:
    """The real app on the virtual screen; `window` is its main window's X id once shown."""

    def __init__(self, screen: VirtualScreen, python: str, home: Path, files: list[Path], log: Path,
                 dark: bool) -> None:
        self.screen = screen
        env = {k: v for k, v in screen.env().items() if not k.endswith("_API_KEY") and k != "WAYLAND_DISPLAY"}
        env.update(PDFDESK_HOME=str(home), QT_QPA_PLATFORM="xcb", QT_SCALE_FACTOR="1",
                   PYTHON_KEYRING_BACKEND="keyring.backends.fail.Keyring")  # never the user's keyring
        if dark:
            env.update(QT_QPA_PLATFORMTHEME="gtk3", GTK_THEME="Adwaita:dark")
        self.log = log.open("a", encoding="utf-8")
        self.process = subprocess.Popen([python, "-m", "pdfdesk", *map(str, files)], cwd=REPO, env=env,
                                        stdout=self.log, stderr=subprocess.STDOUT)
        self.window = ""

    def wait_for_window(self, width: int, height: int, timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline and self.process.poll() is None:
            found = self.screen.xdotool("search", "--onlyvisible", "--pid", str(self.process.pid), "--name", "pdfdesk")
            if found:
                self.window = found.splitlines()[0]
                break
            time.sleep(0.3)
        if not self.window:
            raise RuntimeError(f"no pdfdesk window within {timeout_s:.0f} s (exit status {self.process.poll()})")
        x = self.screen.xdotool
        for _ in range(2):  # again after the app has restored its own saved geometry
            x("windowmove", self.window, "0", "0")
            x("windowsize", self.window, str(width), str(height))
            time.sleep(1.0)
        # no window manager gives focus: a click into the window (its status bar) does
        x("mousemove", "--window", self.window, str(width // 2), str(height - 8), "click", "1")
        x("windowfocus", self.window)

    def keys(self, *keys: str, pause: float = 0.3) -> None:
        for key in keys:
            self.screen.xdotool("key", "--clearmodifiers", key)
            time.sleep(pause)

    def type(self, text: str) -> None:
        self.screen.xdotool("type", "--delay", "15", text)

    def drag(self, start: tuple[int, int], end: tuple[int, int]) -> None:
        x = self.screen.xdotool
        x("mousemove", "--window", self.window, str(start[0]), str(start[1]))
        x("mousedown", "1")
        for step in range(1, 6):
            px = start[0] + (end[0] - start[0]) * step // 5
            py = start[1] + (end[1] - start[1]) * step // 5
            x("mousemove", "--window", self.window, str(px), str(py))
            time.sleep(0.05)
        x("mouseup", "1")

    def memory(self, title: str) -> None:
        print(f"  memory, {title}:", *tree_lines(snapshot(self.process.pid), "  "), sep="\n", flush=True)

    def quit(self) -> int | None:
        if self.process.poll() is None:
            self.keys("ctrl+q")
        try:
            return self.process.wait(QUIT_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            print("  the app did not quit on Ctrl+Q in time; terminating it", flush=True)
            self.process.terminate()
            return self.process.wait(QUIT_TIMEOUT_S)
        finally:
            self.log.close()


def one_width(width: int, args: argparse.Namespace, python: str, files: list[Path], out: Path) -> list[Path]:
    """Every state at one window width; the PNGs written."""
    folder = out / f"{width}px"
    folder.mkdir(parents=True, exist_ok=True)
    home = Path(tempfile.mkdtemp(prefix="pdfdesk-screens-home-"))
    height, wait = args.height, args.settle
    screen = VirtualScreen(width, height)
    shots: list[Path] = []
    try:
        print(f"{width} x {height} on display {screen.display}", flush=True)
        app = RunningApp(screen, python, home, files, folder / "app.log", args.dark)
        try:
            app.wait_for_window(width, height, START_TIMEOUT_S * wait)
            time.sleep(4 * wait)  # pages rendered, the index of the sample built
            shots.append(screen.shoot(folder / "01-opened.png"))
            app.keys("ctrl+shift+f")
            app.keys("ctrl+a")
            app.type(SEARCH_QUERY)
            app.keys("Return")
            time.sleep(3 * wait)
            shots.append(screen.shoot(folder / "02-search.png"))
            app.keys("ctrl+l")
            app.type(QUESTION)
            app.keys("Return")
            time.sleep(6 * wait)
            shots.append(screen.shoot(folder / "03-ask.png"))
            app.memory("after the search and the question")
            # a drag over a page's text, found in the last picture by the view's grey around it
            row = int(height * 0.4)
            left, right = page_span(shots[-1], row, width) or (int(width * 0.33), int(width * 0.52))
            app.drag((left + (right - left) // 5, row - 20), (right - (right - left) // 5, row + 20))
            app.keys("ctrl+shift+h", "ctrl+alt+n")
            time.sleep(1.5 * wait)
            shots.append(screen.shoot(folder / "04-highlight-notes.png"))
            for key, name in (("alt+v", "05-menu-view"), ("alt+r", "06-menu-review")):
                app.keys(key, pause=0.8 * wait)
                shots.append(screen.shoot(folder / f"{name}.png"))
                app.keys("Escape")
            app.keys("ctrl+Tab", "ctrl+g")
            app.keys("ctrl+a")
            app.type("150")
            app.keys("Return", "ctrl+plus", pause=0.5)
            time.sleep(3 * wait)
            shots.append(screen.shoot(folder / "07-long-document.png"))
            app.memory("with the long document open at page 150")
        finally:
            print(f"  quit: exit status {app.quit()}", flush=True)
        again = RunningApp(screen, python, home, [], folder / "app.log", args.dark)
        try:
            again.wait_for_window(width, height, START_TIMEOUT_S * wait)
            time.sleep(4 * wait)
            shots.append(screen.shoot(folder / "08-restarted.png"))
        finally:
            print(f"  quit after the restart: exit status {again.quit()}", flush=True)
    finally:
        screen.close()
        shutil.rmtree(home, ignore_errors=True)
    return shots


def make_long_document(path: Path, pages: int, python: str) -> Path:
    """Realistic text pages, by the generator the GUI bench uses (in a child process)."""
    subprocess.run([python, str(REPO / "bench" / "gui_bench.py"), "--make", str(path), str(pages)], check=True,
                   env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    return path


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not sys.platform.startswith("linux"):
        print("screens: skipped: needs Linux with Xvfb")
        return 0
    missing = missing_tools()
    if missing:
        print(f"screens: skipped: {', '.join(missing)} not found ({INSTALL_HINT})")
        return 0
    venv = REPO / ".venv" / "bin" / "python"
    python = args.python or (str(venv) if venv.exists() else sys.executable)
    out = (args.out or Path(tempfile.mkdtemp(prefix="pdfdesk-screens-"))).resolve()
    out.mkdir(parents=True, exist_ok=True)
    long_pdf = make_long_document(out / f"long-{args.pages}-pages.pdf", args.pages, python)
    files = [REPO / "resources" / "sample.pdf", long_pdf]
    shots: list[Path] = []
    for width in args.widths:
        shots += one_width(width, args, python, files, out)
    print(f"\n{len(shots)} screenshots in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
