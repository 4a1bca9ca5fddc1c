"""Which languages Tesseract reads here, which the user asked for, and which a script calls for.

Kept apart from the reading itself (ocr.py): the settings dialog and the indexing owner ask
these questions without reading a page, and the names of Tesseract's data, the locale's codes
and OSD's scripts are one table each.
"""

from __future__ import annotations

import locale
import os
import re
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from functools import lru_cache


class OcrUnavailable(Exception):
    """Tesseract cannot run here (not installed, or none of the languages asked for)."""


# The user's locale language (ISO 639-1) as Tesseract names its language data, and the Debian
# package that brings it; languages not listed are named as Tesseract names them.
LOCALE_LANGUAGES = {
    "en": "eng", "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "pt": "por", "nl": "nld",
    "ru": "rus", "uk": "ukr", "pl": "pol", "cs": "ces", "sv": "swe", "da": "dan", "fi": "fin",
    "no": "nor", "nb": "nor", "el": "ell", "tr": "tur", "zh": "chi_sim", "ja": "jpn", "ko": "kor",
    "ar": "ara", "he": "heb", "fa": "fas", "hi": "hin",
}
# OSD's script names, and the language data that reads each (first installed wins).
SCRIPT_LANGUAGES = {
    "Cyrillic": ("rus", "ukr", "bul", "srp"), "Greek": ("ell",), "Arabic": ("ara", "fas"),
    "Hebrew": ("heb",), "Han": ("chi_sim", "chi_tra"), "HanS": ("chi_sim",), "HanT": ("chi_tra",),
    "Japanese": ("jpn",), "Katakana": ("jpn",), "Hiragana": ("jpn",), "Hangul": ("kor",),
    "Devanagari": ("hin",), "Latin": ("eng",),
}
LANGUAGE_SCRIPTS = {language: script for script, languages in SCRIPT_LANGUAGES.items()
                    for language in languages if script not in ("HanS", "HanT", "Katakana", "Hiragana")}
LANGUAGE_NAME = re.compile(r"^[a-z]{3}(_[a-z]{3,4})?$")


def tesseract_env() -> dict[str, str]:
    # one thread per process: pages run side by side, and OpenMP's threads only fight each other
    return {**os.environ, "OMP_THREAD_LIMIT": "1", "OMP_NUM_THREADS": "1"}



# -- Tesseract on this machine ----------------------------------------------------------------
def tesseract_program() -> str | None:
    """The `tesseract` program pdfdesk runs (PDFDESK_TESSERACT names another, e.g. in a bundle)."""
    chosen = os.environ.get("PDFDESK_TESSERACT")
    if chosen:
        return chosen if os.access(chosen, os.X_OK) else None
    return shutil.which("tesseract")


@lru_cache(maxsize=4)
def _data_of(program: str) -> frozenset[str]:
    """Every language data name `tesseract --list-langs` prints (osd among them), asked once."""
    try:
        listed = subprocess.run([program, "--list-langs"], capture_output=True, timeout=20, check=False,
                                stdin=subprocess.DEVNULL, env=tesseract_env())
    except (OSError, subprocess.TimeoutExpired):
        return frozenset()
    lines = listed.stdout.decode("utf-8", "replace").splitlines()
    return frozenset(line.strip() for line in lines[1:] if LANGUAGE_NAME.match(line.strip()))


def installed_languages() -> frozenset[str]:
    """The language data Tesseract has here (empty when it is not installed)."""
    program = tesseract_program()
    return _data_of(program) - {"osd"} if program else frozenset()


def has_osd() -> bool:
    """Whether Tesseract can tell a page's orientation and script here."""
    program = tesseract_program()
    return program is not None and "osd" in _data_of(program)


def default_languages(locale_name: str | None = None) -> tuple[str, ...]:
    """The system locale's language plus English ("de_DE.UTF-8" -> deu, eng)."""
    if locale_name is None:
        locale_name = os.environ.get("LC_ALL") or os.environ.get("LC_MESSAGES") or os.environ.get("LANG") \
            or (locale.getlocale()[0] or "")
    code = locale_name.split(".")[0].split("_")[0].split("-")[0].lower()
    own = LOCALE_LANGUAGES.get(code)
    return (own, "eng") if own and own != "eng" else ("eng",)


def parse_languages(setting: str) -> tuple[str, ...]:
    """A setting such as "deu+eng" (Tesseract's own notation; commas and spaces also split);
    empty means the locale's default."""
    parts = tuple(dict.fromkeys(p for p in re.split(r"[+,\s]+", setting.strip().lower()) if p))
    return parts or default_languages()


def usable_languages(wanted: Sequence[str]) -> tuple[tuple[str, ...], str | None]:
    """The wanted languages Tesseract has, and a one-line note naming what to install for the
    others (None when nothing is missing). With none of them installed, English if it is."""
    installed = installed_languages()
    have = tuple(language for language in wanted if language in installed)
    missing = [language for language in wanted if language not in installed]
    note = None
    if missing:
        packages = " ".join("tesseract-ocr-" + language.replace("_", "-") for language in missing)
        note = (f"OCR language data missing: {', '.join(missing)} (install {packages}, "
                f"or choose other OCR languages in Settings)")
    if not have and "eng" in installed:
        have = ("eng",)
    return have, note


def script_languages(script: str | None, languages: Sequence[str], installed: Iterable[str]) -> tuple[str, ...]:
    """The languages to read a page in OSD's `script` with: the user's of that script, else the
    first installed language for it (a Cyrillic page when the user set German and English), and
    English beside any other script: a Russian manual's commands and names are Latin, and read
    as Russian alone they come out as Cyrillic look-alikes ("warning" as "магп1п9д")."""
    if script is None or script not in SCRIPT_LANGUAGES:
        return tuple(languages)
    wanted = SCRIPT_LANGUAGES[script]
    have = set(installed)
    own = tuple(language for language in languages if LANGUAGE_SCRIPTS.get(language) == LANGUAGE_SCRIPTS.get(wanted[0]))
    if not own:
        own = next(((language,) for language in wanted if language in have), ())
    if not own:
        return tuple(languages)
    if LANGUAGE_SCRIPTS.get(own[0]) != "Latin" and "eng" in have and "eng" not in own:
        own = (*own, "eng")
    return own
