"""The questions of the collection benchmark, written from what bench/collection_corpus.py generated.

Known-item questions name the document the way a user remembers it (the other party, the supplier
and date, the site and quarter, the machine's model) and what they look for on it, in their own
words; which-documents questions ask for every document holding a clause, a seat, a supplier, a
site, a finding or a warning, with the words a user would type in the search panel as the term.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import TYPE_CHECKING

from bench import collection_texts as texts

if TYPE_CHECKING:
    from bench.collection_corpus import Doc, KnownItem, WhichDocs

KNOWN_SHARE = 0.4  # about one known-item question for every 2.5 documents

# mark key prefix or key -> (question templates, fact words beyond the document's entity)
_CONTRACT_EN = {
    "seat": (["Where does the {e} contract send disputes to arbitration in {v}?",
              "Which page of our agreement with {e} has the {v} arbitration clause?"], ["arbitration", "{v}"]),
    "court": (["Where does the agreement with {e} say the courts of {v} decide disputes?"], ["courts", "{v}"]),
    "clause:convenience": (["Can we end the {e} contract for convenience, and where does it say so?",
                            "Where is termination for convenience in the {e} agreement?"], ["convenience"]),
    "clause:non-solicitation": (["Where is the non-solicitation clause in the contract with {e}?"],
                                ["non-solicitation"]),
    "clause:liquidated damages": (["What liquidated damages can we claim from {e}?"], ["liquidated damages"]),
    "clause:escrow": (["Where does {e} agree to put its source code in escrow?"], ["escrow"]),
    "clause:most favoured": (["Does {e} promise us most favoured customer rates?"], ["most favoured"]),
    "clause:data processing": (["How does the {e} agreement handle personal data under the GDPR?"], ["GDPR"]),
    "law:Scotland": (["Where does the {e} agreement say the law of Scotland applies?"], ["Scotland"]),
    "fee": (["What monthly fee do we pay {e}?", "How much is the monthly fee in the {e} contract?"],
            ["monthly fee"]),
}
_CONTRACT_DE = {
    "seat": (["Wo ist im Vertrag mit {e} das Schiedsgericht in {v} vereinbart?"], ["Schiedsgericht", "{v}"]),
    "court": (["Ist im Vertrag mit {e} {v} als Gerichtsstand vereinbart?"], ["Gerichtsstand", "{v}"]),
    "clause:ordentliche Kündigung": (["Wo steht im Vertrag mit {e}, dass wir ihn ordentlich kündigen können?"],
                                     ["ordentliche Kündigung"]),
    "clause:Abwerbeverbot": (["Gibt es im Vertrag mit {e} ein Abwerbeverbot?"], ["Abwerbeverbot"]),
    "fee": (["Wie hoch ist die monatliche Vergütung für {e}?"], ["monatliche Vergütung"]),
}
_CONTRACT_RU = {
    "court": (["Где в договоре с {e} сказано, что споры решает суд города {v}?"], ["суде", "{v}"]),
    "clause:одностороннем порядке": (["Можем ли мы в одностороннем порядке отказаться от договора с {e}?"],
                                      ["одностороннем порядке"]),
    "clause:конфиденциальности": (["Где в договоре с {e} говорится о конфиденциальности?"], ["конфиденциальности"]),
    "fee": (["Какова ежемесячная стоимость услуг по договору с {e}?"], ["ежемесячная стоимость"]),
}
_OTHERS = {
    ("invoice", "date"): (["Find the invoice from {e} dated {v}.", "Show me the {e} invoice of {v}."], ["{v}"]),
    ("report", "finding"): (["What did the {e} inspection find about {shown}?",
                             "Was anything wrong with {shown} at the {e} inspection?"], ["{v}"]),
    ("manual", "error"): (["What does error {v} mean on the {e}?", "The {e} shows {v}: what is wrong?"], ["{v}"]),
    ("manual", "safety"): (["What does the {e} manual say about its {v} battery?"], ["{v}"]),
}


# How a question names an inspection finding (its fact is the key word itself).
_SHOWN = {"rodent": "rodents", "fire exit": "the fire exit", "emergency lighting": "the emergency lighting",
          "handrail": "the handrail", "racking": "the racking", "roof": "the roof",
          "extinguisher": "the fire extinguishers", "quay wall": "the quay wall"}
_MAINTENANCE = {"descale": "How often do I descale the {e}?", "filter": "How do I clean the filter of the {e}?",
                "squeegee": "When should the squeegee blades of the {e} be replaced?",
                "spark plug": "How often should I change the spark plug on the {e}?",
                "hydraulic": "How do I top up the hydraulic fluid in the {e}?"}


def _templates(doc: Doc, key: str) -> tuple[list[str], list[str]] | None:
    prefix, _, value = key.partition(":")
    if prefix == "maintenance":
        return [_MAINTENANCE[value]], ["{v}"]
    if prefix == "safety" and value != "lithium":
        return None
    if doc.kind == "contract":
        table = {"en": _CONTRACT_EN, "de": _CONTRACT_DE, "ru": _CONTRACT_RU}[doc.lang]
        return table.get(key) or (table.get(prefix) if prefix in ("seat", "court") else None)
    return _OTHERS.get((doc.kind, prefix))


def _report_entity(doc: Doc) -> list[str]:
    site, quarter = doc.entity.rsplit(" ", 2)[0], " ".join(doc.entity.rsplit(" ", 2)[1:])
    return [site, quarter]


def known_items(docs: list[Doc], page_words: dict[tuple[str, int], set[str]],
                rng: random.Random) -> list[KnownItem]:
    """One question for about 40 % of the documents, each with exactly one page in the library
    that holds every fact it names."""
    from bench.collection_corpus import KnownItem, half_of, words

    postings: dict[str, set[tuple[str, int]]] = defaultdict(set)
    for where, found in page_words.items():
        for word in found:
            postings[word].add(where)
    chosen: list[KnownItem] = []
    for doc in docs:
        candidates = []
        for key, page in sorted(doc.marks.items()):
            found = _templates(doc, key)
            if not found:
                continue
            templates, fact_forms = found
            value = key.partition(":")[2]
            entity = _report_entity(doc) if doc.kind == "report" else [doc.entity]
            facts = tuple(entity + [f.format(v=value) for f in fact_forms])
            needed = {w for fact in facts for w in words(fact)}
            pages = set.intersection(*(postings.get(w, set()) for w in needed))
            if pages == {(doc.name, page)}:
                entity_text = " ".join(entity) if doc.kind == "report" else doc.entity
                question = rng.choice(templates).format(e=entity_text, v=value, shown=_SHOWN.get(value, value))
                candidates.append(KnownItem(question, doc.name, page, facts, f"{doc.kind}-{doc.lang}",
                                            half_of(doc.name)))
        if candidates:
            chosen.append(rng.choice(candidates))
    rng.shuffle(chosen)
    wanted = max(1, round(KNOWN_SHARE * len(docs)))
    by_kind: dict[str, list[KnownItem]] = defaultdict(list)
    for item in chosen:
        by_kind[item.kind].append(item)
    picked: list[KnownItem] = []
    while len(picked) < wanted and any(by_kind.values()):  # round robin: every kind and language asked
        for kind in sorted(by_kind):
            if by_kind[kind] and len(picked) < wanted:
                picked.append(by_kind[kind].pop())
    return sorted(picked, key=lambda q: (q.file, q.page))


_FINDING_QUESTIONS = {
    "asbestos": "Which site inspections found asbestos?", "rodent": "Which inspection reports mention rodents?",
    "fire exit": "Which inspections found a blocked fire exit?",
    "emergency lighting": "Which inspection reports found failed emergency lighting?",
    "handrail": "Which reports mention a corroded handrail?",
    "racking": "Which inspection reports found damaged pallet racking?",
    "roof": "Which inspections found a leaking roof?",
    "extinguisher": "Which inspection reports found a fire extinguisher missing?",
    "quay wall": "Which reports found a crack in the quay wall?"}


def _which_specs() -> list[tuple[str, str, str, str]]:
    """(question, term, kind and language or "*", the mark key or "entity:..." that decides membership)."""
    specs = [
        ("Which contracts let us terminate for convenience?", "termination for convenience", "contract-en",
         "clause:convenience"),
        ("Which of our contracts have a non-solicitation clause?", "non-solicitation", "contract-en",
         "clause:non-solicitation"),
        ("Which agreements provide for liquidated damages?", "liquidated damages", "contract-en",
         "clause:liquidated damages"),
        ("Which contracts put source code in escrow?", "escrow", "contract-en", "clause:escrow"),
        ("Which contracts promise us most favoured customer rates?", "most favoured customer", "contract-en",
         "clause:most favoured"),
        ("Which contracts deal with personal data under the GDPR?", "GDPR data processor", "contract-en",
         "clause:data processing"),
        ("Which contracts are governed by the law of Scotland?", "law of Scotland", "contract-en", "law:Scotland"),
        ("Which contracts are under Northern Ireland law?", "Northern Ireland", "contract-en",
         "law:Northern Ireland"),
        ("Welche Verträge erlauben eine ordentliche Kündigung?", "ordentliche Kündigung", "contract-de",
         "clause:ordentliche Kündigung"),
        ("Welche Verträge enthalten ein Abwerbeverbot?", "Abwerbeverbot", "contract-de", "clause:Abwerbeverbot"),
        ("Какие договоры допускают отказ в одностороннем порядке?", "одностороннем порядке", "contract-ru",
         "clause:одностороннем порядке"),
        ("В каких договорах есть условие о конфиденциальности?", "конфиденциальности", "contract-ru",
         "clause:конфиденциальности"),
        ("Which documents involve Northwind Harbour?", "Northwind Harbour", "*", "entity:Northwind"),
        ("Which manuals warn about lithium batteries?", "lithium battery", "manual-en", "safety:lithium"),
        ("Which manuals warn about carbon monoxide?", "carbon monoxide", "manual-en",
         "safety:carbon monoxide"),
        ("Which manuals explain error E42?", "error E42", "manual-en", "error:E42"),
        ("Which manuals list error code E07?", "error E07", "manual-en", "error:E07"),
    ]
    for seat, _rules in texts.SEATS["en"]:
        specs.append((f"Which contracts go to arbitration in {seat}?", f"arbitration {seat}", "contract-en",
                      f"seat:{seat}"))
    for seat, _rules in texts.SEATS["de"]:
        specs.append((f"Welche Verträge sehen ein Schiedsgericht in {seat} vor?", f"Schiedsgericht {seat}",
                      "contract-de", f"seat:{seat}"))
    specs += [(f"Which contracts give the {court} courts jurisdiction?", f"courts of {court}", "contract-en",
               f"court:{court}") for court in texts.COURTS["en"]]
    specs += [(f"Bei welchen Verträgen ist {court} Gerichtsstand?", f"Gerichtsstand {court}", "contract-de",
               f"court:{court}") for court in texts.COURTS["de"]]
    specs += [(f"По каким договорам споры решает суд города {court}?", f"суде города {court}", "contract-ru",
               f"court:{court}") for court in texts.COURTS["ru"]]
    specs += [(f"Show me every invoice from {supplier}.", supplier, "invoice-en", f"entity:{supplier}")
              for supplier in texts.SUPPLIERS]
    specs += [(f"Which inspection reports cover the {site}?", site, "report-en", f"entity:{site}")
              for site in texts.SITES]
    specs += [(_FINDING_QUESTIONS[key], key, "report-en", f"finding:{key}") for key, _f, _a in texts.FINDINGS]
    specs += [(f"Which manuals are for {brand} machines?", brand, "manual-en", f"entity:{brand}")
              for brand in texts.BRANDS]
    return specs


def which_documents(docs: list[Doc]) -> list[WhichDocs]:
    """Every which-documents question whose answer set is not empty, with that complete set."""
    from bench.collection_corpus import WhichDocs, half_of

    out = []
    for question, term, kind, key in _which_specs():
        files = []
        for doc in docs:
            if kind != "*" and f"{doc.kind}-{doc.lang}" != kind:
                continue
            if key.startswith("entity:"):
                name = key.partition(":")[2]
                held = (doc.lang == "en" and doc.kind != "manual") if name == "Northwind" else \
                    doc.entity.startswith(name)
            else:
                held = key in doc.marks
            if held:
                files.append(doc.name)
        if len(files) >= 2:  # a handful at least: one document is a known item
            out.append(WhichDocs(question, term, tuple(sorted(files)), kind, half_of(question)))
    return out
