"""The offline answerer over a collection (several attached documents, or the library): passages
ranked across documents, and the complete list for "which documents …" questions.

A document with many matching pages must not crowd the others out of an answer, so at most
`PER_DOCUMENT` passages come from one document when others match too. A "which documents"
question is not a passage question: its answer is every document holding the words (found with
`pdf_search` group_by "document", paged to the end), counted and listed, each with a citation of
its best page; the whole list also goes to the front end as a `DocumentList` event, because the
text names only the first `LISTED`.
"""

from __future__ import annotations

import itertools
import os
import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pdfdesk.agent.events import AgentEvent, DocumentList
from pdfdesk.core.references import display_name

if TYPE_CHECKING:
    from pdfdesk.agent.offline import OfflineAnswerer

PER_DOCUMENT = 2          # passages from one document while others match too
COLLECTION_PASSAGES = 5   # passages quoted for a question over several documents
LIBRARY_POOL = 15         # library pages ranked (and excerpted) for a question before the per-document cap
DOCUMENTS_PAGE = 1000     # documents asked for per pdf_search call when listing (the tool's most)
SUBSET_WORDS = 5          # words whose every subset may be tried when no document holds them all
LISTED = 50               # documents named in the text of a "which documents" answer
MAX_CALLS = 1000          # list calls at most (a tool that never ends its paging cannot loop us)

Ranked = list[tuple[str, dict[str, Any]]]

_NOUNS = (r"(?:documents?|docs|files?|pdfs?|contracts?|agreements?|reports?|papers?|invoices?|letters?|leases?|"
          r"policies|records?|manuals?|handbooks?|guides?|specifications?|statements?|minutes|memos?|e-?mails?|"
          r"notices?|certificates?|orders?|receipts?|quotations?|proposals?|filings?|deeds?|briefs?|"
          r"judgments?|exhibits?|datasheets?|brochures?|studies|articles?|theses|presentations?|slides|"
          r"inspections?|audits?|surveys?|assessments?|"
          r"dokumente?n?|dateien|datei|verträgen?|vertrag|berichten?|rechnungen|unterlagen|"
          r"briefen?|schreiben|fichiers?|contrats?|rapports?|factures?|lettres?|dossiers?|accords?|baux)")
_WHICH = re.compile(
    r"\b(?:(?:in|among|of)\s+)?which\s+(?:of\s+(?:the|my|our)\s+)?" + _NOUNS + r"\b"
    # "which inspection reports": a word naming the kind before the noun
    r"|\bwhich\s+(?:of\s+(?:the|my|our)\s+)?[^\W\d_]+\s+" + _NOUNS + r"\b"
    # "what documents" asks for a list only with a verb of mentioning ("what documents do I need" does not)
    r"|\bwhat\s+" + _NOUNS + r"\s+(?:\w+\s+){0,2}?(?:mention|contain|refer|talk|discuss|include|cover|cite|name|say)"
    r"|\b(?:list|show|name|give|find)\s+(?:me\s+)?(?:all\s+|every\s+)?(?:of\s+)?(?:the\s+)?(?:my\s+)?" + _NOUNS +
    r"\b|\b(?:all|every|each)\s+(?:the\s+|of\s+the\s+)?" + _NOUNS + r"\b|\bhow\s+many\s+" + _NOUNS + r"\b"
    r"|\b(?:in\s+|bei\s+|unter\s+)?welche[nmrs]?\s+(?:der\s+)?" + _NOUNS + r"\b"
    r"|\b(?:liste\s+|zeige?\s+(?:mir\s+)?)?alle[nr]?\s+(?:der\s+)?" + _NOUNS + r"\b|\bwie\s*viele\s+" + _NOUNS +
    r"\b|\b(?:dans\s+|parmi\s+|sur\s+)?(?:quels|quelles|quel|quelle|lesquels|lesquelles)\s+(?:des\s+)?" + _NOUNS +
    r"\b|\b(?:liste[rz]?\s+|donne[rz]?(?:-moi)?\s+)?(?:tous|toutes)\s+(?:les\s+|mes\s+)?" + _NOUNS +
    r"\b|\bcombien\s+de\s+" + _NOUNS + r"\b"
    r"|(?:\b(?:в|по|из|среди|у)\s+)?\b(?:каких|какие|какими|каким|сколько|всех|все)\s+(?:из\s+)?"
    r"(?:договор|документ|отч[её]т|сч[её]т|файл|контракт|соглашени|руководств|письм)\w*",
    re.IGNORECASE)
# Words of a "which documents" question that say how, not what: verbs of mentioning and the German
# and French function words (the English ones are offline.py's stopwords).
_LIST_WORDS = frozenset("""
contain contains containing refer refers referring reference references referenced talk talks discuss discusses
include includes included cover covers covering named mentioned mentioning cited listed found appear appears
appearing occur occurs used use uses word words term terms phrase have has with summarize summarise summary
summarized overview zusammenfassen zusammenfassung résumer résume résumé résumez
let lets go goes put puts deal deals involve involves allow allows permit permits provide provides promise
promises explain explains warn warns need needs require requires say says state states show shows
concern concerns concerning concerne concernent concernant
der die das den dem des ein eine einen einem einer eines und oder mit von vom zu zum zur auf für über ist sind
wird werden wurde hat haben enthält enthalten erwähnt erwähnen nennen nennt genannt betreffen betrifft behandeln
behandelt sprechen spricht steht stehen kommt kommen vor wo was bitte sich auch noch begriff wort es gibt mir
dem darin drin findet man taucht auf
quels quelles quel quelle lesquels lesquelles dans parmi les le la des de du un une et ou avec sur pour par qui
que est sont ont mentionnent mentionne mentionné contiennent contient parlent parle font fait référence citent
cite évoquent évoque traitent traite il en ce cette ces terme mot moi trouve trouve-t-on apparaît apparait
figure figurent
есть содержат содержится упоминается упоминают говорится сказано указано где какие каких каким касаются касается
""".split())
_ELISION = re.compile(r"^(?:[ldjcmnst]|qu)'", re.IGNORECASE)
# Nouns naming a kind of thing, not a subject: "manuals for Dynamo machines" are the Dynamo manuals,
# whether or not a page of them says "machine".
_GENERIC = re.compile(
    r"^(?:machines?|machinery|devices?|appliances?|equipment|products?|items?|units?|models?|tools?|"
    r"brands?|makes?|vehicles?|companies|company|firms?|"
    r"maschinen?|geräte?n?|produkte?n?|artikel|modelle?n?|marken?|firmen?|fahrzeuge?n?|werkzeuge?n?|"
    r"appareils?|produits?|équipements?|modèles?|marques?|articles?|outils?|véhicules?|sociétés?|entreprises?|"
    r"(?:машин|устройств|прибор|оборудовани|издели|товар|модел|аппарат)"
    r"(?:|а|ы|у|е|ой|ам|ами|ах|о|и|ом|я|ю|ей|ев|ов|ь|ям|ями|ях))$", re.IGNORECASE)
_TOKEN = re.compile(r"[^\W_]+(?:[-'][^\W_]+)*")


def documents_question(text: str) -> str | None:
    """The search words of a "which documents …" question (English, German or French), or None
    when `text` asks something else. The words naming the collection ("which contracts") and how
    ("mention", "erwähnen", "mentionnent") are left out."""
    from pdfdesk.agent.offline import content_words  # offline.py imports this module

    found = _WHICH.search(text)
    if not found:
        return None
    rest = text[:found.start()] + " " + text[found.end():]
    opening = len(text) - len(text.lstrip()) if found.start() > 0 else -1
    words = [_ELISION.sub("", word) for word in content_words(_named_kinds(rest, opening))]
    terms = list(dict.fromkeys(w for w in words if w and w not in _LIST_WORDS))
    return " ".join(terms) if terms else None


def _named_kinds(rest: str, opening: int) -> str:
    """`rest` without the nouns naming a kind of thing ("machines", "Geräte", "appareils") when the
    question also names the thing ("Dynamo machines", "Dynamo-Maschinen", "machines Dynamo"): the
    pages say the name, and the page naming it often does not say the kind. A kind noun that is the
    question's only subject ("cleaning machines", "which documents mention machines") stays, and so
    does one ending a name of several capitalised words ("Dewhurst Cleaning Products"). A name is a
    searched word written with a capital where the question does not begin, or holding a digit (a
    model number); `opening` is where the question's first word is (-1: not in `rest`)."""
    from pdfdesk.agent.offline import content_words

    found = list(_TOKEN.finditer(rest))
    tokens = [m.group() for m in found]

    def name(n: int, token: str) -> bool:
        searched = bool(content_words(token)) and token.lower() not in _LIST_WORDS and not _GENERIC.match(token)
        return searched and (any(c.isdigit() for c in token) or (token[:1].isupper() and found[n].start() != opening))

    names = [name(n, token) for n, token in enumerate(tokens)]
    kept: list[str] = []
    for n, token in enumerate(tokens):
        head, _, tail = token.rpartition("-")
        if head and _GENERIC.match(tail) and head[:1].isupper():
            kept.append(head)  # "Dynamo-Maschinen"
        elif not (_GENERIC.match(token) and any(names[:n] + names[n + 1:])
                  and not (token[:1].isupper() and n > 0 and names[n - 1])):
            kept.append(token)
    return " ".join(kept)


def _strict(match: dict[str, Any]) -> bool:
    return not match.get("keyword_match") and not match.get("low_confidence")


def rank_passages(per_document: Sequence[Ranked], count: int, cap: int | None = PER_DOCUMENT) -> Ranked:
    """The best `count` hits across documents: each document's hits stay in the order its search
    gave them, and the next hit taken is the best (holding every word first, then by its place in
    one ranking across documents when there is one — `rank`, as the library's — else by score) among
    each document's next one. With `cap`, a document gives at most `cap` while others have hits;
    a single matching document gives all `count`."""
    queues = [list(hits) for hits in per_document if hits]
    if len(queues) <= 1:
        cap = None
    taken: Ranked = []
    used: dict[str, int] = {}
    seen: set[tuple[str, int]] = set()
    while len(taken) < count:
        open_queues = [q for q in queues if q and (cap is None or used.get(q[0][0], 0) < cap)]
        if not open_queues:
            break
        best = min(open_queues, key=lambda q: (not _strict(q[0][1]), q[0][1].get("rank", 0),
                                               -float(q[0][1].get("score") or 0.0)))
        document, match = best.pop(0)
        key = (document, int(match["page"]))
        if key in seen:
            continue
        seen.add(key)
        used[document] = used.get(document, 0) + 1
        taken.append((document, match))
    return taken


def by_document(matches: Sequence[dict[str, Any]]) -> list[Ranked]:
    """Library hits (one ranking, each naming its file) grouped by document, best document first."""
    groups: dict[str, Ranked] = {}
    for match in matches:
        file = str(match.get("file") or "")
        if file:
            groups.setdefault(file, []).append((file, match))
    return list(groups.values())


def cite(file: str, page: int) -> str:
    return f"[{display_name(file)} p. {page}]"


def outside_library(answerer: OfflineAnswerer) -> list[str]:
    """The attached documents a library search does not reach (all of them without the library in
    scope): each is searched by its path."""
    if answerer.collection is None:
        return list(answerer.documents)
    held = {os.path.normcase(entry.path) for entry in answerer.collection.entries}
    return [d for d in answerer.documents if os.path.normcase(d) not in held]


async def library_hits(answerer: OfflineAnswerer, query: str, events: list[AgentEvent],
                       count: int) -> tuple[list[Ranked], list[str]]:
    """The library's best pages for `query`, grouped by document. When the pages ranked are all
    from fewer documents than `count` passages need, the best page of the next documents (their
    group-by-document entries, on the same scale) is added, so one document holding the words on
    many pages does not hide the others."""
    result = await answerer.tool("pdf_search", {**answerer.library_args(), "query": query,
                                                "max_results": LIBRARY_POOL, "mode": "auto"}, events)
    if result.is_error:
        return [], [f"The library: {result.details.get('message', 'could not be searched')}"]
    matches = [{**match, "rank": n} for n, match in enumerate(result.details.get("matches", []))]
    groups = by_document(matches)
    if len(matches) >= LIBRARY_POOL and len(groups) * PER_DOCUMENT < count:
        more = await answerer.tool("pdf_search", {**answerer.library_args(), "query": query, "group_by": "document",
                                                  "max_results": count}, events)
        known = {group[0][0] for group in groups}
        for entry in [] if more.is_error else more.details.get("documents", []):
            file = str(entry.get("file") or "")
            if file and file not in known and entry.get("page"):
                known.add(file)
                groups.append([(file, {"page": int(entry["page"]), "score": entry.get("score", 0.0), "file": file,
                                       "excerpt": entry.get("excerpt") or "", "rank": LIBRARY_POOL + len(groups)})])
    return groups, []


async def _documents_holding(answerer: OfflineAnswerer, words: Sequence[str]) -> int:
    """How many documents of the collection have a page holding every one of `words` (asked
    quietly: these probes are no tool cards of the answer)."""
    places = [answerer.library_args()] if answerer.library else []
    places += [{"path": document} for document in outside_library(answerer)]
    total = 0
    for where in places:
        result = await answerer.tool("pdf_search", {**where, "query": " ".join(words), "group_by": "document",
                                                    "max_results": 1}, [])
        if not result.is_error:
            total += int(result.details.get("documents_total") or 0)
    return total


async def searched_words(answerer: OfflineAnswerer, terms: str) -> tuple[str, list[str]]:
    """The words to list documents by, and those left out. A question's own words ("which contracts
    *promise* us most favoured rates") are not always on the page that answers it: when no document
    holds every word, the words no document holds are left out, then as few others as can be
    (of the groups that leave out as many, the one whose words are rarest: they say most about
    the subject)."""
    words = terms.split()
    if len(words) < 2 or await _documents_holding(answerer, words):
        return terms, []
    counts = {word: await _documents_holding(answerer, [word]) for word in words}
    kept = [word for word in words if counts[word]]
    if len(kept) <= SUBSET_WORDS:  # as few words left out as can be; of those, the most telling
        for size in range(len(kept), 0, -1):
            found = [(await _documents_holding(answerer, list(group)), group)
                     for group in itertools.combinations(kept, size)]
            held = [(total, group) for total, group in found if total]
            if held:
                kept = list(min(held, key=lambda item: sum(counts[w] for w in item[1]))[1])
                break
    while len(kept) > 1 and not await _documents_holding(answerer, kept):
        kept.remove(max(kept, key=lambda word: counts[word]))
    if not kept:
        return terms, []
    return " ".join(kept), [word for word in words if word not in kept]


async def list_documents(answerer: OfflineAnswerer, terms: str, events: list[AgentEvent]) -> str:
    """Every document of the collection holding `terms`, counted and listed (the first `LISTED`
    in the text, each citing its best page; all of them in a `DocumentList` event). When no
    document holds every word of the question, the words it is listed by are chosen
    (`searched_words`) and the answer says which were left out."""
    asked = terms
    terms, left_out = await searched_words(answerer, terms)
    entries: list[dict[str, Any]] = []
    problems: list[str] = []
    if answerer.library:  # ranked by the library index; attached documents outside it follow
        entries, problem = await _every_page_of(answerer, {**answerer.library_args()}, terms, events)
        problems += [f"The library: {problem}"] if problem else []
    attached: list[dict[str, Any]] = []
    for document in outside_library(answerer):
        found, problem = await _every_page_of(answerer, {"path": document}, terms, events)
        if problem:
            problems.append(f"{display_name(document)}: {problem}")
        attached += [{**entry, "file": document} for entry in found]  # the reference the user gave
    attached.sort(key=lambda e: (-float(e.get("score") or 0.0), -int(e.get("pages_matching") or 0)))
    entries += attached
    where = ("the library" + (" and the attached documents" if answerer.documents else "") if answerer.library
             else "the attached documents")
    shown = f"“{terms}”"
    events.append(DocumentList(terms, len(entries), tuple(entries)))
    if not entries:
        fewer = " (a page must hold every word: ask with fewer words to widen it)" if " " in terms else ""
        return "\n".join([f"No document in {where} has a page holding {shown}{fewer}.", *problems])
    count = len(entries)
    verb = "have pages" if count != 1 else "has a page"
    lines = [f"{count} document{'s' * (count != 1)} in {where} {verb} holding {shown}:"]
    if left_out:
        lines[0] = (f"No document holds every word of “{asked}”; left out: "
                    f"{', '.join(f'“{word}”' for word in left_out)}. " + lines[0])
    names = Counter(display_name(str(entry["file"])).lower() for entry in entries[:LISTED])
    for number, entry in enumerate(entries[:LISTED], 1):
        file, page = str(entry["file"]), int(entry.get("page") or (entry.get("best_pages") or [1])[0])
        answerer.tracker.admit(file)  # its citation resolves though no tool result showed its page
        pages = int(entry.get("pages_matching") or 1)
        best = ", ".join(str(p) for p in (entry.get("best_pages") or [page]))
        # two documents of one name (in two folders) are cited by path, so each opens its own
        mark = f"[{file} p. {page}]" if names[display_name(file).lower()] > 1 else cite(file, page)
        lines.append(f"{number}. {display_name(file)} — {pages} page{'s' * (pages != 1)} (best: p. {best}) {mark}")
    if count > LISTED:
        lines.append(f"… and {count - LISTED} more ({count} in all): the whole list is in this answer's "
                     "document list. To export it, search for the same words in the search panel, choose "
                     "Documents and use Export (CSV: document, pages, count).")
    return "\n".join([*lines, *problems])


async def _every_page_of(answerer: OfflineAnswerer, where: dict[str, Any], terms: str,
                         events: list[AgentEvent]) -> tuple[list[dict[str, Any]], str]:
    """Every group-by-document entry for `terms`, following `next_offset` to the end."""
    entries: list[dict[str, Any]] = []
    offset: int | None = 0
    for _ in range(MAX_CALLS):
        if offset is None:
            break
        result = await answerer.tool("pdf_search", {**where, "query": terms, "group_by": "document",
                                                    "max_results": DOCUMENTS_PAGE, "offset": offset}, events)
        if result.is_error:
            return entries, str(result.details.get("message", "could not be searched"))
        entries += list(result.details.get("documents", []))
        following = result.details.get("next_offset")
        offset = following if isinstance(following, int) and following > offset else None
    return entries, ""
