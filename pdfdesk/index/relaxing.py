"""Relaxing a query that asks for all of its words into one that takes pages with some of them.

People describe a passage in their own words, and few pages then hold every word they typed. A
relaxed query keeps what the user wrote as syntax (phrases, NOT, prefixes) and makes the plain
words optional: a page must hold at least one word that is not a stop word, and pages holding
more of the words score higher (a page's score times the share of the words it holds). Stop
words are left out: among pages holding only some of the words, "do", "the" and "have" say
nothing of the subject, yet a long page full of them outscored the short one holding the words
that do. Long words also match others sharing their first letters, a word the document lacks is
tried as a compound's parts, and a word typed with a hyphen or apostrophe also as its parts apart.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, partial

from whoosh.lang.stopwords import stoplists
from whoosh.query import And, AndMaybe, AndNot, Not, Or, Phrase, Prefix, Query, Term

from pdfdesk.index.analysis import GRAM_MARK, analyze, stem_lowered
from pdfdesk.index.query_parsing import WordPhrase
from pdfdesk.index.relaxed_scoring import BestOf, WordsOr

# Fewer results holding every word than this, and results holding some of them follow.
RELAX_BELOW = 3


# Pages missing one word rank first while no more than a first page of results (pdf_search's
# default) do, however many results a caller asks for: the search panel's 50 and an agent's 10
# must put the same pages first.
NEAR_FIRST_AT_MOST = 10


def near_ranked_first(count: int) -> bool:
    """Whether pages holding every word but one rank, in an order by evidence, with the pages
    holding every word. They are there for a passage typed with one word misremembered: while a
    first page of results shows them all, that passage is among them. When more do (a question's
    word no page uses, and its other words common in the document), their keyword order is all
    that ranks them, and they are weighed as the pages holding some of the words are."""
    return count <= NEAR_FIRST_AT_MOST


def near_pool(limit: int) -> int:
    """How many pages missing one word to ask for when `limit` results are wanted: at least one
    more than `near_ranked_first` allows, so that it can tell whether more pages do."""
    return max(limit, NEAR_FIRST_AT_MOST + 1)


STOP_LANGUAGES = ("en", "de", "fr", "es", "it", "pt", "nl", "ru")
# Whoosh has no Arabic or Persian list: the commonest particles and prepositions, which Arabic
# script often writes joined to the next word, so a page rarely holds them as words of their own;
# and, as the English list has "how", "when" and "can", the question words and "can" ("هل يمكن").
ARABIC_STOPS = ("و في من إلى الى على عن أن ان إن ما لا لم لن هذا هذه ذلك تلك التي الذي الذين ثم أو او قد كان "
                "كانت مع كل به بها له لها هو هي هم عند بين حتى إذا اذا "
                "هل كم متى كيف ماذا لماذا أين اين أي اي يمكن")
PERSIAN_STOPS = ("و از به در که این آن را با های ها می تا برای هم یا است بر نیز اگر پس "
                 "آیا چه چرا کجا چگونه چند کی")
# Whoosh's Russian list holds most pronouns in one or two of their forms ("который" in none), and
# the stemmer does not bring the others to those: "которые", "наших", "всем" and "почему" counted
# as words of a question and were highlighted on every page. Their other forms, and the question
# words that the English list has ("how", "why", "which", "our", "your", "all").
RUSSIAN_FORMS = ("который которая которое которые которого которой которому которым которых которыми которую "
                 "весь вся всем всеми всему наш наша наше наши нашего нашей нашему нашим наших нашими нашу "
                 "ваш ваша ваше ваши вашего вашей вашему вашим ваших вашими вашу та те тех ту нему нём "
                 "чей чья чьё чьи почему сколько насколько")
# Nor a Greek one: articles, pronouns, prepositions, particles and the question words.
GREEK_STOPS = ("ο η το οι τα του της των τον την τους τις ένας μια μία ένα έναν μιας ενός και κι ή να θα "
               "με σε στο στη στην στον στα στους στις στης στου από για προς ως μέχρι έως κατά μετά "
               "χωρίς αν ότι πως πώς που πού ποιος ποια ποιο τι πότε γιατί όταν δεν μη μην μου σου "
               "μας σας εγώ εσύ εμείς εσείς αυτό αυτή αυτός αυτά αυτοί αυτές αυτόν αυτήν είναι ήταν "
               "ούτε είτε όπως")  # not αλλά ("but"): its stem is that of άλλος ("other")
# The English list has the words a question opens with ("how", "when", "which", "can"); Whoosh's
# lists of the other languages lack many of theirs, which then counted as words of the question and
# were painted wherever a page held them. Not French "comment": it is an English word too, and the
# one a reviewer searches a PDF's comments by.
QUESTION_WORDS = ("quand où pourquoi quel quels quelles combien lequel laquelle lesquels lesquelles peut peux "
                  "wann warum weshalb wieso wieviel darf "
                  "cómo cuándo dónde cuál cuáles cuánto cuánta cuántos cuántas puedo puede porqué "
                  "quali posso può onde quê quais pode wanneer waarom welke hoeveel нужно могу")
# In a relaxed query a word of TRUNCATE_FROM letters or more also matches the words sharing its
# first TRUNCATE_TO letters, at TRUNCATED_WEIGHT of its own weight (see `_other_forms`).
TRUNCATE_FROM = 6
TRUNCATE_TO = 5
TRUNCATED_WEIGHT = 0.5
# A word the index does not hold at all may be a compound ("Haushaltsessig", "typefaces") or the
# start of one ("Kalk" of "Kalkablagerungen"): it is split into two parts of COMPOUND_PART letters
# or more that the index holds, and a word of PREFIX_FROM letters or more matches words it starts.
COMPOUND_PART = 4
PREFIX_FROM = 4
# the joining letters German and Dutch put between a compound's parts ("Haushalt-s-essig")
LINKERS = ("s", "es", "n", "en", "e")

Known = Callable[[str, str], bool]  # whether the index holds (field, term)


@lru_cache(maxsize=1)
def stop_terms() -> frozenset[str]:
    """Index terms of the common function words of the languages listed."""
    words = [word for language in STOP_LANGUAGES for word in stoplists[language]]
    words += (ARABIC_STOPS.split() + PERSIAN_STOPS.split() + GREEK_STOPS.split() + RUSSIAN_FORMS.split()
              + QUESTION_WORDS.split())
    return frozenset(term for word in words for term in analyze(word, query=True))


def is_stop(query: Query) -> bool:
    """A single word (in one field or several, with or without its letter trigrams) that is a
    stop word."""
    if isinstance(query, Term):
        return isinstance(query.text, str) and query.text in stop_terms()
    if isinstance(query, Or) and query.subqueries:
        words = [sub for sub in query.subqueries if not _grams(sub)]
        return bool(words) and all(is_stop(sub) for sub in words)
    return False


def _grams(query: Query) -> bool:
    """A phrase of letter trigrams (the parser's second way of asking for an Arabic word)."""
    return isinstance(query, Phrase) and all(word.startswith(GRAM_MARK) for word in query.words)


def strict_query(parsed: Query) -> Query:
    """`parsed` with its stop words made optional: they add to a page's score but a page without
    them still holds all the words that matter (Arabic script glues و and ب to the next word)."""
    if not isinstance(parsed, And) or isinstance(parsed, AndNot):
        return parsed
    stops = [sub for sub in parsed.subqueries if is_stop(sub)]
    rest = [sub for sub in parsed.subqueries if not is_stop(sub)]
    if not stops or not [sub for sub in rest if not isinstance(sub, Not)]:
        return parsed
    required: Query = And(rest) if len(rest) > 1 else rest[0]
    return AndMaybe(required, Or(stops))


def relaxed_query(parsed: Query, known: Known | None = None) -> Query | None:
    """`parsed` with its required parts made optional, or None when it asks for nothing to relax
    (one word, already OR, or nothing but stop words). With `known` (the index's vocabulary), a
    word the index lacks is also asked for as its compound parts and as a prefix."""
    if not isinstance(parsed, And) or isinstance(parsed, AndNot):
        return None
    positive = [sub for sub in parsed.subqueries if not isinstance(sub, Not)]
    negative = [sub.query for sub in parsed.subqueries if isinstance(sub, Not)]
    content = [sub for sub in positive if not is_stop(sub)]
    if len(positive) < 2 or not content:
        return None
    content = [sub.accept(partial(_other_forms, known=known)) for sub in content]
    relaxed: Query = WordsOr(content) if len(content) > 1 else content[0]
    if negative:
        relaxed = AndNot(relaxed, Or(negative) if len(negative) > 1 else negative[0])
    return relaxed


def near_queries(parsed: Query) -> list[Query]:
    """Queries for pages holding every word that matters but one, one query per word left out
    (a known passage typed with one word misremembered); none for fewer than three such words."""
    if not isinstance(parsed, And) or isinstance(parsed, AndNot):
        return []
    negative = [sub for sub in parsed.subqueries if isinstance(sub, Not)]
    content = [sub for sub in parsed.subqueries if not isinstance(sub, Not) and not is_stop(sub)]
    if len(content) < 3:
        return []
    return [And(content[:left_out] + content[left_out + 1:] + negative) for left_out in range(len(content))]


def _other_forms(node: Query, known: Known | None = None) -> Query:
    """A long word also as its first letters: a question in one's own words rarely has the
    page's word forms ("Gebühren" for "gebührenfrei"), and the stemmers know English, Russian,
    Greek and Arabic only (German, French or Spanish are stemmed as if English). Truncating to
    five letters is a stemmer that knows no language, good enough where there is none; it is used
    only once the words as typed found too little, and weighs less.
    A word the index lacks (`known`) is asked for as the words it starts and as its parts."""
    if isinstance(node, WordPhrase):
        return _apart(node)
    if not isinstance(node, Term) or not isinstance(node.text, str) or node.text.startswith(GRAM_MARK):
        return node
    weight = node.boost * TRUNCATED_WEIGHT
    others: list[Query] = []
    if len(node.text) >= TRUNCATE_FROM:
        others.append(Prefix(node.fieldname, node.text[:TRUNCATE_TO], boost=weight, constantscore=False))
    if known is not None and _latin(node.text) and not known(node.fieldname, node.text):
        if PREFIX_FROM <= len(node.text) < TRUNCATE_FROM:
            others.append(Prefix(node.fieldname, node.text, boost=weight, constantscore=False))
        parts = compound_parts(node.text, partial(known, node.fieldname))
        if parts:
            others.append(Or([Term(node.fieldname, part) for part in parts], boost=weight))
    # the best of them, never their sum: a word as typed must not count twice
    return BestOf([node, *others]) if others else node


def _apart(phrase: WordPhrase) -> Query:
    """A word typed with a hyphen or an apostrophe as written, or its parts anywhere on the page at
    half weight: "single-board" is also the page's "boards for a single user"."""
    parts = [Term(phrase.fieldname, word) for word in dict.fromkeys(phrase.words)
             if len(word) > 1 and not word.startswith(GRAM_MARK) and word not in stop_terms()]
    if not parts:
        return phrase
    weight = phrase.boost * TRUNCATED_WEIGHT
    apart = Or(parts, boost=weight) if len(parts) > 1 else parts[0].with_boost(weight)
    return BestOf([phrase, apart])


def _latin(word: str) -> bool:
    """Letters of the Latin script only: the languages that write compounds as one word."""
    return word.isalpha() and max(word) < "\u0250"


def compound_parts(word: str, known: Callable[[str], bool]) -> list[str]:
    """The index terms of `word` read as two words written together, the index holding at least
    one of them (the last when it can: a compound's last part says what it is); [] when no cut
    gives such parts. German, Dutch and the Nordic languages write compounds as one word, and
    a question rarely has the compound the page used, or the page the question's."""
    best: tuple[tuple[int, int], list[str]] | None = None
    for cut in range(COMPOUND_PART, len(word) - COMPOUND_PART + 1):
        head = stem_lowered(word[cut:])
        heads_known = known(head)
        for left in _without_linker(word[:cut]):
            modifier = stem_lowered(left)
            modifier_known = known(modifier)
            rank = (3 if heads_known and modifier_known else 2 if heads_known else
                    1 if modifier_known and len(left) > COMPOUND_PART else 0)
            # the cut whose known part is longest: a shorter one is more often a chance word
            weight = (rank, len(word) - cut if rank == 2 else cut)
            if rank and (best is None or weight > best[0]):
                best = (weight, [modifier, head])
    return best[1] if best else []


def _without_linker(left: str) -> list[str]:
    """A compound's first part as written and without the joining letters it may end with."""
    forms = [left]
    forms += [left[:-len(linker)] for linker in LINKERS
              if left.endswith(linker) and len(left) - len(linker) >= COMPOUND_PART]
    return forms
