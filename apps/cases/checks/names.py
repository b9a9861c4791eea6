"""The same person on every document: names compared tolerant of order, accents and
transliteration (MRZ ``MUELLER`` is printed ``MÜLLER``), compound surnames, middle names and
initials, with a score from 0 to 1.

A name is a bag of words. Each word is compared in every spelling it may have: folded to plain
ASCII (``MÜLLER`` → ``MULLER``) and transliterated as an MRZ writes it (``MÜLLER`` → ``MUELLER``),
with the tables in ``knowledge/names.toml``. Two people are the same when one of the surname's
words and one of the given names are found in the other name; words missing on one side (a
middle name, a second surname, a truncated MRZ) are tolerated, a different word is not.
"""

from __future__ import annotations

import itertools
import unicodedata
from dataclasses import dataclass

from rapidfuzz.distance import Indel

from apps.cases import knowledge
from apps.cases.checks.types import CaseFacts, CheckResult, DocumentFacts, Policy, usable

CHECK = "same_person"


@dataclass(frozen=True)
class Word:
    spellings: frozenset[str]  # plain ASCII, upper case

    @property
    def initial(self) -> str:
        return min(self.spellings)[:1]

    @property
    def is_initial(self) -> bool:
        return all(len(s) == 1 for s in self.spellings)


@dataclass(frozen=True)
class PersonName:
    """A name as words; ``surname`` empty when the document does not say which words it is."""

    surname: tuple[Word, ...]
    given: tuple[Word, ...]

    @property
    def words(self) -> tuple[Word, ...]:
        return self.surname + self.given


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()


def spellings(word: str) -> frozenset[str]:
    """The ASCII spellings of one upper-case word: folded, and transliterated the MRZ's way."""
    table = knowledge.names().transliteration
    upper = unicodedata.normalize("NFC", word.upper())
    transliterated = "".join(table.get(c, c) for c in upper)
    return frozenset(s for s in {_fold(upper), _fold(transliterated)} if s)


def words(value: str) -> tuple[Word, ...]:
    """The words of a name, titles and generational suffixes left out; apostrophes join
    (``O'BRIEN`` is ``OBRIEN``), hyphens and ``<`` separate."""
    known = knowledge.names()
    text = unicodedata.normalize("NFC", value.upper()).replace("'", "").replace("\u2019", "")
    raw = "".join(c if c.isalnum() else " " for c in text).split()
    kept = [w for w in raw if _fold(w) not in known.titles | known.suffixes]
    return tuple(Word(spellings(w)) for w in kept if spellings(w))


def _significant(found: tuple[Word, ...]) -> tuple[Word, ...]:
    """Words that identify: a particle (VAN, DE, BIN) alone proves nothing."""
    particles = knowledge.names().particles
    return tuple(w for w in found if not w.spellings <= particles)


def _joined(found: tuple[Word, ...]) -> tuple[Word, ...]:
    """The words and each two neighbours written together (``VAN HANSEN`` as ``VANHANSEN``, ``O
    BRIEN`` as ``OBRIEN``): one document glues what another spaces."""
    particles = knowledge.names().particles
    pairs = tuple(
        Word(frozenset(a + b for a in first.spellings for b in second.spellings))
        for first, second in itertools.pairwise(found)
        if not (first.spellings | second.spellings) <= particles  # "VAN DEN" alone proves nothing
    )
    return found + pairs


def word_score(a: Word, b: Word) -> float:
    """1 for the same word in some spelling, the initial's score for an initial of the other,
    else their best similarity (0..1)."""
    if a.spellings & b.spellings:
        return 1.0
    if a.is_initial or b.is_initial:
        return knowledge.names().initial_score if a.initial == b.initial else 0.0
    return max(Indel.normalized_similarity(x, y) for x in a.spellings for y in b.spellings)


def _best(
    word: Word, among: tuple[Word, ...], taken: set[int], *, initials: bool = True
) -> tuple[float, int]:
    """The best score of ``word`` among the words not ``taken`` (initials only when allowed), and
    the index of the word that gave it (-1 for none)."""
    scored = [
        (word_score(word, other), i)
        for i, other in enumerate(among)
        if i not in taken and (initials or not other.is_initial)
    ]
    return max(scored, default=(0.0, -1))


def name_score(reference: PersonName, other: PersonName) -> float:
    """How surely ``other`` names the person ``reference`` names (0..1).

    With a known surname: the best of the surname's words found among the other's words (not as
    an initial), and then the best of the given names among the rest; the score is the lower of
    the two. Without one: each identifying word of the shorter name must be found in the longer,
    and one word alone is not enough to name a person."""
    candidates = _joined(other.words)
    surname = _significant(reference.surname) + _joined(reference.surname)[len(reference.surname) :]
    if surname:
        surname_score, index = max(
            (_best(w, candidates, set(), initials=False) for w in surname), default=(0.0, -1)
        )
        given = _significant(reference.given)
        if not given:
            return surname_score
        given_score = max(_best(w, candidates, {index})[0] for w in given)
        return min(surname_score, given_score)
    shorter, longer = sorted((_significant(reference.words), _significant(other.words)), key=len)
    if not shorter:
        return 0.0
    pool = _joined(longer)
    taken: set[int] = set()
    scores = []
    for word in shorter:
        score, index = _best(word, pool, taken)
        taken.add(index)
        scores.append(score)
    lowest = min(scores)
    return min(lowest, 0.5) if len(shorter) == 1 and len(longer) > 1 else lowest


def document_name(document: DocumentFacts) -> tuple[str, PersonName] | None:
    """(the fields read, the name) of the person a document names, or None."""
    fields = document.fields
    if fields.get("surname"):
        return "surname and given_names", PersonName(
            surname=words(fields["surname"]), given=words(fields.get("given_names", ""))
        )
    for name in ("account_holder", "full_name"):
        if fields.get(name):
            return name, PersonName(surname=(), given=words(fields[name]))
    return None


def same_person(facts: CaseFacts, policy: Policy) -> CheckResult:
    """Every document's name (and the declared name) against the first identity document's, or,
    without one, the first name found."""
    named = [(d.label, *found) for d in usable(facts) if (found := document_name(d)) is not None]
    named.sort(key=lambda n: n[2].surname == ())  # a name whose surname is known is the reference
    if facts.declared.get("full_name"):
        named.append(("the declared data", "full_name", PersonName((), words(facts.declared["full_name"]))))
    if len(named) < 2:
        return CheckResult(CHECK, True, "fewer than two names to compare")
    (ref_label, ref_fields, reference), others = named[0], named[1:]
    failures, lowest = [], 1.0
    for label, fields, name in others:
        score = round(name_score(reference, name), 2)
        lowest = min(lowest, score)
        if score < policy.name_match_threshold:
            failures.append(
                f"{fields} of {label} does not match {ref_fields} of {ref_label} (score {score:.2f})"
            )
    if failures:
        detail = "; ".join(failures) + f"; the policy needs {policy.name_match_threshold:.2f}"
        return CheckResult(CHECK, False, detail, score=lowest)
    return CheckResult(
        CHECK,
        True,
        f"{len(named)} names match {ref_fields} of {ref_label} (lowest score {lowest:.2f})",
        score=lowest,
    )
