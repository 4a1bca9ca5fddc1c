"""A library of several hundred real-looking documents with questions whose answers are known.

The collection benchmark (bench/collection_bench.py) asks a whole library two kinds of question:

  known item      "Where does the Ardent Logistics contract send disputes to arbitration in Geneva?":
                  the answer is one page of one document;
  which documents "Which contracts let us terminate for convenience?": the answer is every document
                  that holds the term, known from the generator (a handful to a few hundred documents).

Documents (bench/collection_texts.py has their words): services agreements in English, German and
Russian (parties, fees, clauses in a different order per contract, arbitration seats or courts),
supplier invoices (a few big suppliers, many small ones), quarterly site inspection reports and
operating manuals of machines (safety warnings, maintenance, error codes). Pages are written by
bench/library_corpus.Writer (Helvetica for Latin, embedded DejaVu for Cyrillic).

Questions are written from what the generator put where, never from a ranking. A known-item
question is kept only when the facts it names (e.g. the party, "arbitration", "Geneva") are all on
its page and on no other page of the library. Halves: known items by document (a stable hash of the
file name), which-documents questions by their text; the lead tunes on "tune", quotes "report".
"""

from __future__ import annotations

import json
import random
import re
import sys
import unicodedata
import zlib
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import collection_texts as texts  # noqa: E402
from bench.library_corpus import Writer, date_text, money  # noqa: E402

GENERATOR = "collection-corpus-5"
MANIFEST = "collection.json"
KIND_SHARE = {("contract", "en"): 0.28, ("contract", "de"): 0.06, ("contract", "ru"): 0.06,
              ("invoice", "en"): 0.30, ("report", "en"): 0.15, ("manual", "en"): 0.15}
HEADER = {"en": "Services Agreement {no} between {client} and {party}",
          "de": "Dienstleistungsvertrag {no} zwischen {client} und {party}",
          "ru": "Договор {no} между {client} и {party}"}
PAGE = {"en": "Page {p} of {n}", "de": "Seite {p} von {n}", "ru": "Стр. {p} из {n}"}


@dataclass
class Doc:
    name: str
    lang: str
    kind: str
    marks: dict[str, int] = field(default_factory=dict)   # what the generator put where: key -> page
    entity: str = ""   # the party, supplier, site or model a user names the document by


@dataclass(frozen=True)
class KnownItem:
    question: str
    file: str          # the document's file name
    page: int          # 1-based
    facts: tuple[str, ...]  # what the page holds (and no other page holds all of)
    kind: str
    half: str


@dataclass(frozen=True)
class WhichDocs:
    question: str
    term: str          # the words a user would type in the search panel's Documents view
    files: tuple[str, ...]  # every document holding the term, sorted
    kind: str
    half: str


def words(text: str) -> list[str]:
    """Case-folded word tokens, as the truth compares text (a page holds a term when it holds each word)."""
    return re.findall(r"\w+", unicodedata.normalize("NFKC", text).casefold())


def half_of(text: str) -> str:
    return "tune" if zlib.crc32(text.encode()) % 2 == 0 else "report"


def _date(rng: random.Random) -> tuple[int, int, int]:
    return rng.randint(2021, 2024), rng.randint(1, 12), rng.randint(1, 28)


class _Pages:
    """A document being written: a list of pages, each a list of (paragraph, bold)."""

    def __init__(self) -> None:
        self.pages: list[list[tuple[str, bool]]] = []

    def page(self) -> int:
        self.pages.append([])
        return len(self.pages)

    def add(self, text: str, bold: bool = False) -> None:
        self.pages[-1].append((text, bold))

    def write(self, path: Path, lang: str, title: str, header: str) -> None:
        writer = Writer(lang)
        for paragraphs in self.pages:
            writer.new_page()
            for text, bold in paragraphs:
                writer.paragraph(text, bold=bold, size=12 if bold else 10, force=True)
        writer.save(path, title, header, lambda p, n: PAGE[lang].format(p=p, n=n))


def _contract(doc: Doc, rng: random.Random, number: int) -> tuple[_Pages, str, str]:
    lang = doc.lang
    firsts, trades = texts.FIRMS[lang]
    trade = rng.choice(trades)
    first = rng.choice(firsts)
    if lang == "en":
        party, full = f"{first} {trade}", f"{first} {trade} Ltd"
    elif lang == "de":
        party, full = f"{first} {trade}", f"{first} {trade} GmbH"
    else:
        party = full = f"ООО «{first}-{trade}»"
    doc.entity = party
    year, month, day = _date(rng)
    no = f"NH-{year}-{number:04d}"
    out = _Pages()
    out.page()
    city = rng.choice(texts.ADDRESS_CITY[lang])
    fee = money(lang, rng.randrange(2000, 40000, 50))
    days = rng.choice([30, 60, 90])
    when = date_text(lang, year, month, day)
    clauses: list[tuple[str, str, str]] = []  # (mark key, heading, text)
    if lang == "en":
        out.add(f"Services Agreement No. {no}", bold=True)
        out.add(f"This Agreement is made on {when} between {texts.CLIENT['en']} (the Client) and {full}, registered "
                f"office in {city} (the Contractor).")
        out.add(f"The Contractor provides {texts.SERVICE[trade]} at the Client's terminals on the terms below.")
        clauses.append(("fee", "Fees", f"The Client pays a monthly fee of {fee}, invoiced in arrears and payable "
                        f"within {days} days of receipt."))
        clauses.append(("term", "Term", f"This Agreement runs for {rng.choice(['two', 'three', 'five'])} years "
                        "from the commencement date and may be renewed by agreement."))
        clauses.append(("liability", "Liability", f"Each party's liability is capped at {rng.choice([100, 150, 200])} "
                        "per cent of the fees paid in the preceding twelve months."))
        law = rng.choices(["England and Wales", "Scotland", "Northern Ireland"], [0.8, 0.15, 0.05])[0]
        clauses.append((f"law:{law}", "Governing law", f"This Agreement is governed by the law of {law}."))
    elif lang == "de":
        out.add(f"Dienstleistungsvertrag Nr. {no}", bold=True)
        out.add(f"Zwischen {texts.CLIENT['de']} (Auftraggeber) und {full}, Sitz in {city} (Auftragnehmer), wird am "
                f"{when} folgender Vertrag geschlossen.")
        out.add(f"Der Auftragnehmer übernimmt {texts.SERVICE[trade]} im Hafen des Auftraggebers.")
        clauses.append(("fee", "Vergütung", f"Die monatliche Vergütung beträgt {fee} zuzüglich Umsatzsteuer, "
                        f"zahlbar binnen {days} Tagen."))
        clauses.append(("term", "Laufzeit", "Der Vertrag läuft drei Jahre und verlängert sich jeweils um ein Jahr."))
    else:
        out.add(f"Договор оказания услуг № {no}", bold=True)
        out.add(f"{texts.CLIENT['ru']} (Заказчик) и {full}, г. {city} (Исполнитель), заключили настоящий договор "
                f"{when}")
        out.add(f"Исполнитель оказывает {texts.SERVICE[trade]}.")
        clauses.append(("fee", "Стоимость услуг", f"Ежемесячная стоимость услуг составляет {fee}, оплата в течение "
                        f"{days} дней."))
        clauses.append(("term", "Срок действия", "Договор действует три года с даты подписания."))
    seats, courts = texts.SEATS[lang], texts.COURTS[lang]
    if seats and rng.random() < 0.6:
        seat, rules = rng.choice(seats)
        text = {"en": f"Any dispute arising out of this Agreement shall be finally resolved by arbitration in "
                      f"{seat} under the {rules}.",
                "de": f"Streitigkeiten entscheidet ein Schiedsgericht mit Sitz in {seat} nach den {rules}."}[lang]
        clauses.append((f"seat:{seat}", {"en": "Disputes", "de": "Streitbeilegung"}[lang], text))
    else:
        court = rng.choice(courts)
        text = {"en": f"The courts of {court} have exclusive jurisdiction over any dispute under this Agreement.",
                "de": f"Ausschließlicher Gerichtsstand ist {court}.",
                "ru": f"Споры по настоящему договору рассматриваются в Арбитражном суде города {court}."}[lang]
        clauses.append((f"court:{court}", {"en": "Jurisdiction", "de": "Gerichtsstand", "ru": "Споры"}[lang], text))
    for key, heading, text in texts.CLAUSES[lang]:
        if rng.random() < texts.CLAUSE_SHARE[key]:
            clauses.append((f"clause:{key}", heading, text.format(days=days, pct=rng.choice([5, 10, 15]))))
    rng.shuffle(clauses)
    per_page = rng.choice([2, 3])
    for number_in, (key, heading, text) in enumerate(clauses, start=1):
        if number_in % per_page == 1 or per_page == 1:
            page = out.page()
        out.add(f"{number_in}. {heading}", bold=True)
        out.add(text)
        if rng.random() < 0.5:
            out.add(texts.filler(lang, rng))
        doc.marks[key] = page
    out.page()
    out.add({"en": "Signatures", "de": "Unterschriften", "ru": "Подписи сторон"}[lang], bold=True)
    out.add(f"{texts.CLIENT[lang]} / {full}")
    title = {"en": "Services Agreement", "de": "Dienstleistungsvertrag", "ru": "Договор оказания услуг"}[lang]
    return out, f"{title} {no}", HEADER[lang].format(no=no, client=texts.CLIENT[lang], party=full)


def _invoice(doc: Doc, rng: random.Random, number: int) -> tuple[_Pages, str, str]:
    supplier = rng.choices(texts.SUPPLIERS, texts.SUPPLIER_WEIGHTS)[0]
    doc.entity = supplier
    year, month, day = _date(rng)
    when = date_text("en", year, month, day)
    no = f"{supplier.split()[0][:3].upper()}-{year}{number:05d}"
    out = _Pages()
    out.page()
    out.add(f"{supplier} Ltd", bold=True)
    out.add(f"Invoice {no}")
    out.add(f"Invoice date: {when}")
    doc.marks[f"date:{when}"] = 1
    out.add(f"Bill to: {texts.CLIENT['en']}, Accounts Payable, Dock Road. Purchase order PO-{rng.randint(10000, 99999)}.")
    lines = rng.randint(4, 14)
    total = 0.0
    for line in range(lines):
        if line == 8:
            out.page()
            out.add("Continued from the previous page.")
        item, price = rng.choice(texts.ITEMS[supplier.split()[0]])
        quantity = rng.randint(1, 40)
        total += quantity * price
        out.add(f"{quantity} × {item} at {money('en', price)} = {money('en', quantity * price)}")
    out.add(f"Net {money('en', total)}; VAT at 20 per cent {money('en', total * 0.2)}; total due "
            f"{money('en', total * 1.2)}.")
    out.page()
    out.add("Payment", bold=True)
    out.add(f"Payable within {rng.choice([14, 30, 45])} days by bank transfer to sort code "
            f"{rng.randint(10, 99)}-{rng.randint(10, 99)}-{rng.randint(10, 99)}, account {rng.randint(10**7, 10**8 - 1)}. "
            "Please quote the invoice number.")
    return out, f"Invoice {no}", f"{supplier} Ltd, invoice {no}"


def _report(doc: Doc, rng: random.Random, number: int) -> tuple[_Pages, str, str]:
    site = rng.choice(texts.SITES)
    quarter = f"Q{rng.randint(1, 4)} {rng.randint(2021, 2024)}"
    doc.entity = f"{site} {quarter}"
    chosen = [f for f, share in zip(texts.FINDINGS, texts.FINDING_SHARE, strict=True) if rng.random() < share]
    if not chosen:
        chosen = [rng.choice(texts.FINDINGS)]
    out = _Pages()
    out.page()
    out.add(f"Site inspection report: {site}, {quarter}", bold=True)
    out.add(f"Prepared for {texts.CLIENT['en']} by the health and safety team. The inspection covered the yard, "
            f"buildings and plant; {len(chosen)} finding(s) need action.")
    for index, (key, finding, _action) in enumerate(chosen, start=1):
        if index % 2 == 1:
            page = out.page()
            out.add("Findings", bold=True)
        out.add(f"Finding {index}. {finding}")
        out.add(rng.choice(["Housekeeping elsewhere was good.", "Staff on shift were briefed.",
                            "Photographs are kept in the site file."]))
        doc.marks[f"finding:{key}"] = page
    out.page()
    out.add("Actions", bold=True)
    for index, (_key, _finding, action) in enumerate(chosen, start=1):
        out.add(f"Action {index}: {action}")
    return out, f"Site inspection report {site} {quarter}", f"Site inspection report: {site}, {quarter}"


def _manual(doc: Doc, rng: random.Random, number: int) -> tuple[_Pages, str, str]:
    brand = texts.BRANDS[number % len(texts.BRANDS)]
    product, maintenance, how = texts.PRODUCTS[(number // len(texts.BRANDS)) % len(texts.PRODUCTS)]
    model = f"{brand} {'KLMRTX'[number // 40 % 6]}{(number % 97) + 2}"
    doc.entity = model
    out = _Pages()
    out.page()
    out.add(f"{model} {product}: operating manual", bold=True)
    out.add("Safety", bold=True)
    for (key, text), share in zip(texts.SAFETY, texts.SAFETY_SHARE, strict=True):
        if rng.random() < share:
            out.add(text)
            doc.marks[f"safety:{key}"] = 1
    out.page()
    out.add("Installation", bold=True)
    out.add(f"Place the {product} on a level surface with 30 cm free space around it and connect it as shown.")
    out.page()
    out.add("Operation", bold=True)
    out.add("Switch on at the main switch, choose a programme and wait for the green lamp before starting.")
    out.page()
    out.add("Maintenance", bold=True)
    out.add(how)
    doc.marks[f"maintenance:{maintenance}"] = 4
    out.page()
    out.add("Troubleshooting", bold=True)
    for code, meaning in sorted(rng.sample(texts.ERRORS, 4)):
        out.add(f"Error {code}: {meaning}. If it persists, call service.")
        doc.marks[f"error:{code}"] = 5
    return out, f"{model} {product} operating manual", f"{model} {product}: operating manual"


WRITERS = {"contract": _contract, "invoice": _invoice, "report": _report, "manual": _manual}


def _plan(documents: int) -> list[tuple[str, str]]:
    plan = []
    for (kind, lang), share in KIND_SHARE.items():
        plan += [(kind, lang)] * max(1, round(documents * share))
    return plan[:documents]


def build(folder: Path, documents: int = 500, seed: int = 31) -> tuple[list[KnownItem], list[WhichDocs]]:
    """Write the library into `folder` (reused when a manifest of the same generator is there) and
    return its questions."""
    manifest = folder / MANIFEST
    key = {"generator": GENERATOR, "documents": documents, "seed": seed}
    if manifest.is_file():
        saved = json.loads(manifest.read_text(encoding="utf-8"))
        if saved.get("key") == key and all((folder / name).is_file() for name in saved["files"]):
            return ([KnownItem(**{**q, "facts": tuple(q["facts"])}) for q in saved["known"]],
                    [WhichDocs(**{**q, "files": tuple(q["files"])}) for q in saved["which"]])
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.pdf"):
        old.unlink()
    docs: list[Doc] = []
    counters: dict[str, int] = defaultdict(int)
    for index, (kind, lang) in enumerate(_plan(documents)):
        rng = random.Random(f"{seed}:{index}")
        counters[kind] += 1
        doc = Doc(f"{kind}-{lang}-{counters[kind]:04d}.pdf", lang, kind)
        pages, title, header = WRITERS[kind](doc, rng, counters[kind])
        pages.write(folder / doc.name, lang, title, header)
        docs.append(doc)
    from bench.collection_questions import known_items, which_documents

    page_words = read_words(folder, [d.name for d in docs])
    known = known_items(docs, page_words, random.Random(seed))
    which = which_documents(docs)
    manifest.write_text(json.dumps({"key": key, "files": [d.name for d in docs],
                                    "known": [asdict(q) for q in known], "which": [asdict(q) for q in which]},
                                   ensure_ascii=False), encoding="utf-8")
    return known, which


def read_words(folder: Path, names: list[str]) -> dict[tuple[str, int], set[str]]:
    """Each page's words as PyMuPDF extracts them from the written PDF (what the truth is checked on)."""
    import pymupdf

    found: dict[tuple[str, int], set[str]] = {}
    for name in names:
        with pymupdf.open(folder / name) as pdf:
            for number, page in enumerate(pdf, start=1):
                found[(name, number)] = set(words(page.get_text()))
    return found
