"""Repair OCR misreadings of an MRZ using its fixed layout and its check digits.

:func:`repair_decoded` takes lines already decoded to the exact format (ctc.py) together with the
recogniser's runner-up characters per position (:func:`options_from_alternatives`), so check-digit
repair weighs real evidence.

Each position carries *options*: ``(character, cost)`` pairs, the read character first at cost 0.
A check digit that fails is repaired by the cheapest set of at most a few substitutions that makes
it pass (a small knapsack over the check's weighted sum mod 10); a repair that costs too much is
not made, and the field stays invalid. Country fields that hold no known code take the cheapest
known code among their options. Every changed character is flagged so confidence can drop.
"""

from __future__ import annotations

import itertools
import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from engines.mrz.checkdigit import char_value
from engines.mrz.countries import is_known_code
from engines.mrz.formats import ALPHABET, FILLER, CheckSpec, MrzFormat, Span
from engines.mrz.lookalikes import CONFUSABLE, FILLER_GLYPHS
from engines.mrz.parse import check_passes, effective_checks

Option = tuple[str, float]
_Way = tuple[float, tuple[tuple[int, int, str], ...]]  # (cost, substitutions (line, position, char))
_WAYS_KEPT = 2
Options = list[list[list[Option]]]  # per line, per position: (character, cost), the read one first

_DROP = set(" \t\r\n.,;:'\"`|_-~")

# Costs are in nats: -log(probability of the substitute / probability of what was read).
_LOOKALIKE_FLOOR = 3.0  # about the most a letter/digit twin costs when the recogniser gives it no weight
_MAX_SUBS = {"composite": 2}  # single substitutions one check digit may make (default below)
_DEFAULT_MAX_SUBS = 3
_MAX_FIX_COST = 5.0  # beyond this, a "repair" is more likely a coincidence than a fix
_MAX_COUNTRY_COST = 4.5  # one twin without evidence (OAT -> QAT), or a little more with some
_FILLER_RUN_COST = 4.0  # the most '<' may cost at one position of a run read as filler
# Fields that end in filler padding that only the composite check covers.
_PADDED_FIELDS = ("optional_data_1", "optional_data_2")
_AMBIGUOUS_MARGIN = 0.5  # a runner-up repair this close makes the chosen one doubtful


@dataclass(frozen=True)
class MrzRepair:
    """Repaired lines of exact format shape, and which characters were changed."""

    format: MrzFormat
    lines: tuple[str, ...]
    repaired: tuple[tuple[bool, ...], ...]
    cost: float  # total cost of the substitutions made by check-digit and country repair
    ambiguous: frozenset[str]  # checks whose repair had a near-equal alternative

    @property
    def repair_count(self) -> int:
        return sum(sum(line) for line in self.repaired)


def normalize_line(text: str) -> str:
    """Upper case, fold full-width forms, turn filler glyphs into '<', drop spaces and punctuation."""
    out = []
    for raw in unicodedata.normalize("NFKC", text):
        if raw in FILLER_GLYPHS:
            out.append(FILLER_GLYPHS[raw])
            continue
        char = raw.upper()
        if char in ALPHABET:
            out.append(char)
        elif char in _DROP:
            continue
        elif char in (">", "(", "[", "{"):
            out.append("<")
    return "".join(out)


def options_from_alternatives(
    fmt: MrzFormat, lines: Sequence[str], alternatives: Sequence[Sequence[Sequence[tuple[str, float]]]]
) -> Options:
    """Turn the recogniser's per-position probabilities into costs (negative log ratio to the read
    character); a letter/digit or letter/letter lookalike of the read character never costs much
    more than _LOOKALIKE_FLOOR, however sure the recogniser was."""
    options: Options = []
    for li, line in enumerate(lines):
        line_options = []
        for pos, char in enumerate(line):
            allowed = fmt.allowed(li, pos)
            probs = {c: p for c, p in alternatives[li][pos] if c in allowed}
            top = max(probs.get(char, 0.0), 1e-6)
            opts: dict[str, float] = {char: 0.0}
            for c, p in probs.items():
                if c != char and p > 0:
                    opts[c] = max(0.0, -_log(p / top))
            for c in CONFUSABLE.get(char, ""):
                # A letter/digit or letter/letter twin stays thinkable even when the recogniser is
                # sure (its training did not know the MRZ font); its evidence still orders the
                # twins. Digits it reads confidently are not second-guessed.
                if c in allowed and not (c.isdigit() and char.isdigit()):
                    model_cost = opts.get(c, -_log(1e-6))
                    opts[c] = min(model_cost, _LOOKALIKE_FLOOR + 0.1 * model_cost)
            line_options.append(sorted(opts.items(), key=lambda kv: kv[1]))
        options.append(line_options)
    return options


def repair_decoded(fmt: MrzFormat, lines: Sequence[str], options: Options) -> MrzRepair:
    """Repair exact-shape lines using per-position options from the recogniser (ctc.py): country
    codes, then each check digit, then the composite, then stray letters in filler."""
    chars = [list(line) for line in lines]
    flags = [[False] * fmt.line_length for _ in range(fmt.line_count)]
    options = [[list(position) for position in line] for line in options]  # repairs update them
    total = 0.0
    ambiguous: set[str] = set()

    def apply(subs: Sequence[tuple[int, int, str]], cost: float) -> None:
        nonlocal total
        for li, pos, char in subs:
            chars[li][pos] = char
            flags[li][pos] = True
            options[li][pos] = [(char, 0.0)] + [(c, k) for c, k in options[li][pos] if c != char]
        total += cost

    def apply_check(name: str, fix: tuple[list[tuple[int, int, str]], float, float] | None) -> None:
        if fix is not None:
            subs, cost, margin = fix
            apply(subs, cost)
            if margin < _AMBIGUOUS_MARGIN:
                ambiguous.add(name)

    # twice: once one country is fixed, the other may follow it (they usually agree)
    for name in ("issuing_country", "nationality", "issuing_country"):
        other = "nationality" if name == "issuing_country" else "issuing_country"
        fix = _fix_country(fmt.spans[name], fmt.spans[other], chars, options)
        if fix:
            apply(*fix)

    current = ["".join(row) for row in chars]
    specs = effective_checks(fmt, current)
    locked: set[tuple[int, int]] = set()
    for spec in specs:
        if spec.name == "composite":
            continue
        current = ["".join(row) for row in chars]
        if not check_passes(spec, current):
            max_subs = _MAX_SUBS.get(spec.name, _DEFAULT_MAX_SUBS)
            apply_check(spec.name, _fix_check(spec, chars, options, set(), max_subs, spec.data[:1]))
        # The composite repairs only what no other check digit covers (optional data, itself):
        # fields with their own check digit were repaired by it, or are beyond repair.
        locked |= _positions(spec.data) | _positions((spec.digit,))
    composite = next(s for s in effective_checks(fmt, ["".join(r) for r in chars]) if s.name == "composite")
    if not check_passes(composite, ["".join(row) for row in chars]):
        padded = [fmt.spans[n] for n in _PADDED_FIELDS if n in fmt.spans]
        apply_check(
            "composite", _fix_check(composite, chars, options, locked, _MAX_SUBS["composite"], padded)
        )

    names = fmt.spans["names"]
    names_text = "".join(chars[names.line][names.start : names.end])
    cleaned = _clean_filler_runs(names_text)
    for offset, (old, new) in enumerate(zip(names_text, cleaned, strict=True)):
        if old != new:
            chars[names.line][names.start + offset] = new
            flags[names.line][names.start + offset] = True

    return MrzRepair(
        format=fmt,
        lines=tuple("".join(row) for row in chars),
        repaired=tuple(tuple(row) for row in flags),
        cost=total,
        ambiguous=frozenset(ambiguous),
    )


def _positions(spans: Sequence[Span]) -> set[tuple[int, int]]:
    return {(s.line, p) for s in spans for p in range(s.start, s.end)}


def _fix_check(
    spec: CheckSpec,
    chars: list[list[str]],
    options: Options,
    locked: set[tuple[int, int]],
    max_subs: int,
    filler_fields: Sequence[Span] = (),
) -> tuple[list[tuple[int, int, str]], float, float] | None:
    """Cheapest substitutions that make one check digit pass.

    Besides at most ``max_subs`` single substitutions, the trailing run of each field in
    ``filler_fields`` may be read as filler as a whole (OCR reads long '<' runs as 'KKCK...').
    Returns (substitutions, cost, margin to the runner-up repair) or None.
    """
    moves = [m for m in (_filler_suffix(span, chars, options, locked) for span in filler_fields) if m]
    fixes: list[tuple[float, tuple[tuple[int, int, str], ...]]] = []
    for chosen in itertools.product(*[(None, m) for m in moves]):
        trial = [row[:] for row in chars]
        pre: list[tuple[int, int, str]] = []
        pre_cost = 0.0
        for move in chosen:
            if move is None:
                continue
            move_subs, move_cost = move
            pre += move_subs
            pre_cost += move_cost
            for li, pos, char in move_subs:
                trial[li][pos] = char
        fixed = locked | {(li, pos) for li, pos, _ in pre}
        for cost, subs in _knapsack(spec, trial, options, fixed, max_subs):
            if subs or pre:
                fixes.append((cost + pre_cost, (*pre, *subs)))
    if not fixes:
        return None
    fixes.sort(key=lambda f: f[0])
    best_cost, best_subs = fixes[0]
    if best_cost > _MAX_FIX_COST:
        return None
    margin = fixes[1][0] - best_cost if len(fixes) > 1 else float("inf")
    return list(best_subs), best_cost, margin


def _knapsack(
    spec: CheckSpec, chars: list[list[str]], options: Options, locked: set[tuple[int, int]], max_subs: int
) -> list[_Way]:
    """The cheapest ways (the two cheapest per count and check digit) to make the check pass.

    The check is linear: sum(weight_i * value_i) mod 10 must equal the digit, so each candidate
    substitution shifts the sum by a known residue and the search is a knapsack over residues.
    Two per state, not one: substitutions that shift the sum alike are the repairs the check
    digit cannot tell apart (an O read as 0 at either of two positions of weight 7), and the
    runner-up is what tells the caller its repair was a guess.
    """
    weights = (7, 3, 1)
    data_positions = [(s.line, p) for s in spec.data for p in range(s.start, s.end)]
    total = 0
    for idx, (li, pos) in enumerate(data_positions):
        try:
            total += weights[idx % 3] * char_value(chars[li][pos])
        except ValueError:
            return []

    # (substitutions, residue) -> the two cheapest (cost, choices)
    states: dict[tuple[int, int], list[_Way]] = {(0, 0): [(0.0, ())]}
    for idx, (li, pos) in enumerate(data_positions):
        if (li, pos) in locked:
            continue
        current = char_value(chars[li][pos])
        alternatives = [
            (c, k)
            for c, k in options[li][pos]
            if c != chars[li][pos] and (c != FILLER or _filler_may_end_here(data_positions, idx, chars))
        ]
        if not alternatives:
            continue
        new_states = {key: list(ways) for key, ways in states.items()}
        for (count, residue), ways in states.items():
            if count >= max_subs:
                continue
            for char, k in alternatives:
                shift = weights[idx % 3] * (char_value(char) - current)
                kept = new_states.setdefault((count + 1, (residue + shift) % 10), [])
                kept.extend((cost + k, (*choices, (li, pos, char))) for cost, choices in ways)
                kept.sort(key=lambda way: way[0])
                del kept[_WAYS_KEPT:]
        states = new_states

    digit_line, digit_pos = spec.digit.line, spec.digit.start
    digit_options: list[Option] = [(chars[digit_line][digit_pos], 0.0)]
    if (digit_line, digit_pos) not in locked:
        digit_options += [
            (c, k) for c, k in options[digit_line][digit_pos] if c != chars[digit_line][digit_pos]
        ]
    fixes: list[tuple[float, tuple[tuple[int, int, str], ...]]] = []
    for digit, dcost in digit_options:
        if not digit.isdigit():
            continue
        changed_digit = digit != chars[digit_line][digit_pos]
        target = (int(digit) - total) % 10
        for (count, residue), ways in states.items():
            if residue != target or count + changed_digit > max_subs:
                continue
            for cost, choices in ways:
                subs = (*choices, (digit_line, digit_pos, digit)) if changed_digit else choices
                fixes.append((cost + dcost, subs))
    return fixes


def _filler_suffix(
    span: Span, chars: list[list[str]], options: Options, locked: set[tuple[int, int]]
) -> tuple[list[tuple[int, int, str]], float] | None:
    """Read the end of a field as filler: the longest trailing run where '<' is plausible at
    every position, if it holds at least two characters that are not '<' yet. Costs half the
    per-character costs: misreadings of one filler run are correlated, not independent."""
    subs: list[tuple[int, int, str]] = []
    cost = 0.0
    for pos in range(span.end - 1, span.start - 1, -1):
        if (span.line, pos) in locked:
            break
        char = chars[span.line][pos]
        if char == FILLER:
            continue
        filler_cost = dict(options[span.line][pos]).get(FILLER)
        if filler_cost is None or filler_cost > _FILLER_RUN_COST:
            break
        subs.append((span.line, pos, FILLER))
        cost += filler_cost / 2
    return (subs, cost) if len(subs) >= 2 else None


def _filler_may_end_here(positions: list[tuple[int, int]], idx: int, chars: list[list[str]]) -> bool:
    """Filler pads a number on the right: '<' is only plausible before another '<' or at the end."""
    if idx + 1 >= len(positions):
        return True
    li, pos = positions[idx + 1]
    return chars[li][pos] == FILLER


def _fix_country(
    span: Span, other: Span, chars: list[list[str]], options: Options
) -> tuple[list[tuple[int, int, str]], float] | None:
    """Swap an unknown country code for the cheapest known one among the options (if cheap)."""
    current = "".join(chars[span.line][span.start : span.end])
    if is_known_code(current):
        return None
    other_code = "".join(chars[other.line][other.start : other.end])
    per_position = [options[span.line][p][:4] for p in range(span.start, span.end)]
    best: tuple[float, str] | None = None
    for combo in itertools.product(*per_position):
        code = "".join(c for c, _ in combo)
        cost = sum(k for _, k in combo)
        if code == current or not is_known_code(code):
            continue
        if code == other_code:
            cost -= 0.5  # nationality and issuing state usually agree
        if best is None or cost < best[0]:
            best = (cost, code)
    if best is None or best[0] > _MAX_COUNTRY_COST:
        return None
    subs = [
        (span.line, span.start + i, c)
        for i, (c, old) in enumerate(zip(best[1], current, strict=True))
        if c != old
    ]
    return subs, max(best[0], 0.0)


def _clean_filler_runs(names: str) -> str:
    """Turn stray letters inside the trailing filler into '<' ('ANNA<<<<K<<<' -> 'ANNA<<<<<<<<').

    Only after the given names have started and with at least two '<' on the left: a real name
    part is separated by one '<', so a single letter surrounded by filler runs is a misread '<'.
    """
    chars = list(names)
    body_start = names.find("<<")
    if body_start < 0:
        return names
    i = body_start + 2
    while i < len(chars) and chars[i] == FILLER:
        i += 1
    # skip the given names
    while i < len(chars) and not (chars[i] == FILLER and i + 1 < len(chars) and chars[i + 1] == FILLER):
        i += 1
    for j in range(i, len(chars)):
        if chars[j] == FILLER:
            continue
        left_ok = j >= 2 and chars[j - 1] == FILLER and chars[j - 2] == FILLER
        right = chars[j + 1 : j + 3]
        right_ok = all(c == FILLER for c in right)
        if left_ok and right_ok and (j + 1 >= len(chars) or chars[j + 1] == FILLER):
            chars[j] = FILLER
    return "".join(chars)


def _log(x: float) -> float:
    return math.log(max(x, 1e-12))
