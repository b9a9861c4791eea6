"""Format-constrained CTC decoding of one MRZ line.

A general-purpose recogniser decodes greedily over ~6,600 characters, so it happily reads '0'
where the MRZ can only hold a letter, drops one '<' of a long filler run, or merges '<<' into '《'.
The MRZ's layout is fixed, so we decode the recogniser's per-frame probabilities again with that
knowledge: the best CTC path that emits *exactly* the line's length, with each position restricted
to the characters its class allows (formats.py). Lookalike characters lend their probability to
the character the position allows (an 'O' at a digit position counts for '0', a '《' for '<'),
which is the OCR-confusion repair done where the evidence is, in probability space.

The search is a Viterbi pass over the CTC topology (blank / character states per position), about
frames x positions x 37 steps; a 44-character line takes a few milliseconds.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from engines.mrz.formats import ALPHABET, CLASS_CHARS, CLASS_LOOKALIKES
from engines.mrz.lookalikes import DIGIT_LOOKALIKES, LETTER_LOOKALIKES, RECOGNISER_FILLER_LOOKALIKES

_NEG = -1e9
_EPS = 1e-9
_MIN_ALTERNATIVE = 1e-5
# runner-up characters below this probability are not worth reporting


@dataclass(frozen=True)
class DecodedLine:
    """The best constrained reading of one line.

    ``log_score`` is the log-probability of the best CTC path (comparable between templates on
    the same crop). Per position: the chosen character's probability among the allowed
    characters, the frames it was read from (for bounding boxes), and every allowed character
    with its probability, most likely first (for check-digit repair).
    """

    text: str
    log_score: float
    char_probs: tuple[float, ...]
    alternatives: tuple[tuple[tuple[str, float], ...], ...]
    frame_spans: tuple[tuple[int, int], ...]
    frames: int


def decode_line(probs: np.ndarray, vocabulary: list[str], template: str) -> DecodedLine | None:
    """Decode a (frames x vocabulary) probability matrix into exactly ``len(template)`` characters,
    each of the ones its class in ``template`` allows (formats.py). Returns None when the crop has
    fewer frames than the line has characters (no path exists)."""
    n_frames, length = probs.shape[0], len(template)
    if n_frames < length:
        return None
    emissions = _emissions(probs.astype(np.float32), tuple(vocabulary))
    blank = np.log(probs[:, 0] + _EPS)
    fold_index = {"plain": 0, "digit": 1, "letter": 2}
    fold_per_pos = np.array([fold_index[CLASS_LOOKALIKES[c]] for c in template])
    allowed = np.zeros((length, len(ALPHABET)), dtype=bool)
    for i, cls in enumerate(template):
        for ch in CLASS_CHARS[cls]:
            allowed[i, ALPHABET.index(ch)] = True
    # log emission per frame, position and character: (frames, positions, 37)
    log_e = np.log(emissions[:, fold_per_pos, :] + _EPS)
    log_e[:, ~allowed] = _NEG

    path = _viterbi(log_e, blank)
    if path is None:
        return None
    score, chars, spans = path

    text_chars, char_probs, alternatives = [], [], []
    for i, (k, (start, end)) in enumerate(zip(chars, spans, strict=True)):
        local = emissions[start:end, fold_per_pos[i], :].sum(axis=0) * allowed[i]
        total = float(local.sum()) or 1.0
        dist = local / total
        order = np.argsort(-dist)
        text_chars.append(ALPHABET[k])
        char_probs.append(float(dist[k]))
        alternatives.append(
            tuple((ALPHABET[j], float(dist[j])) for j in order if dist[j] >= _MIN_ALTERNATIVE)
        )
    return DecodedLine(
        text="".join(text_chars),
        log_score=float(score),
        char_probs=tuple(char_probs),
        alternatives=tuple(alternatives),
        frame_spans=tuple(spans),
        frames=n_frames,
    )


@lru_cache(maxsize=4)
def _projections(vocabulary: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The recogniser columns that matter, and (3 folds, those columns, 37) matrices mapping
    them onto MRZ characters."""
    proj = np.zeros((3, len(vocabulary), len(ALPHABET)), dtype=np.float32)
    for v, token in enumerate(vocabulary):
        if v == 0 or len(token) != 1:  # the CTC blank, or a multi-character token
            continue
        char = unicodedata.normalize("NFKC", token)
        if char in RECOGNISER_FILLER_LOOKALIKES:
            proj[:, v, ALPHABET.index("<")] = 1.0
            continue
        upper = char.upper() if len(char) == 1 else ""
        if upper and upper in ALPHABET:
            proj[:, v, ALPHABET.index(upper)] = 1.0
        for digit, looks in DIGIT_LOOKALIKES.items():
            if char in looks:
                proj[1, v, :] = 0.0
                proj[1, v, ALPHABET.index(digit)] = 1.0
        for letter, looks in LETTER_LOOKALIKES.items():
            if char in looks:
                proj[2, v, :] = 0.0
                proj[2, v, ALPHABET.index(letter)] = 1.0
    columns = np.flatnonzero(proj.sum(axis=(0, 2)))
    return columns, np.ascontiguousarray(proj[:, columns, :])


def _emissions(probs: np.ndarray, vocabulary: tuple[str, ...]) -> np.ndarray:
    """(frames, 3 folds, 37) probabilities of each MRZ character per frame."""
    columns, proj = _projections(vocabulary)
    used = probs[:, columns]
    return np.stack([used @ proj[f] for f in range(proj.shape[0])], axis=1)


def _viterbi(
    log_e: np.ndarray, log_blank: np.ndarray
) -> tuple[float, list[int], list[tuple[int, int]]] | None:
    """Best CTC path emitting exactly one character per position.

    States: blank ``b[i]`` after ``i`` characters (i = 0..L) and character ``c[i, k]`` emitting
    character ``k`` at position ``i``. Consecutive equal characters need a blank between them.
    """
    n_frames, length, n_chars = log_e.shape
    b = np.full(length + 1, _NEG)
    c = np.full((length, n_chars), _NEG)
    b[0] = log_blank[0]
    c[0] = log_e[0, 0]
    back_b = np.zeros((n_frames, length + 1), dtype=np.int16)  # -1 stay, k: from c[i-1, k]
    back_c = np.zeros((n_frames, length, n_chars), dtype=np.int16)  # -1 stay, -2 from b[i], k: c[i-1, k]
    ks = np.arange(n_chars)
    rows = np.arange(length)
    for t in range(1, n_frames):
        c_best = c.max(axis=1)
        c_arg = c.argmax(axis=1)
        from_c = np.concatenate(([_NEG], c_best))
        new_b = np.maximum(b, from_c)
        back_b[t] = np.where(b >= from_c, -1, np.concatenate(([0], c_arg)))
        new_b += log_blank[t]

        prev = np.vstack((np.full((1, n_chars), _NEG), c[:-1]))
        a1 = prev.argmax(axis=1)
        m1 = prev[rows, a1]
        masked = prev.copy()
        masked[rows, a1] = _NEG
        a2 = masked.argmax(axis=1)
        m2 = masked[rows, a2]
        is_a1 = ks[None, :] == a1[:, None]
        from_prev = np.where(is_a1, m2[:, None], m1[:, None])
        from_prev_arg = np.where(is_a1, a2[:, None], a1[:, None])
        from_blank = np.broadcast_to(b[:length, None], (length, n_chars))

        best = c.copy()
        code = np.full((length, n_chars), -1, dtype=np.int16)
        take = from_blank > best
        best = np.where(take, from_blank, best)
        code[take] = -2
        take = from_prev > best
        best = np.where(take, from_prev, best)
        code = np.where(take, from_prev_arg, code).astype(np.int16)
        back_c[t] = code
        c = best + log_e[t]
        b = new_b

    end_char = int(c[length - 1].argmax())
    if max(b[length], c[length - 1, end_char]) <= _NEG / 2:
        return None
    score = float(max(b[length], c[length - 1, end_char]))

    # Walk back, recording which frames each position's character occupies.
    chars = [-1] * length
    first = [n_frames] * length
    last = [-1] * length
    state: tuple[str, int, int] = (
        ("b", length, 0) if b[length] >= c[length - 1, end_char] else ("c", length - 1, end_char)
    )
    for t in range(n_frames - 1, -1, -1):
        kind, i, k = state
        if kind == "c":
            chars[i] = k
            first[i] = min(first[i], t)
            last[i] = max(last[i], t)
            move = int(back_c[t, i, k])
            if t == 0:
                break
            if move == -2:
                state = ("b", i, 0)
            elif move >= 0:
                state = ("c", i - 1, move)
        else:
            if t == 0:
                break
            move = int(back_b[t, i])
            if move >= 0:
                state = ("c", i - 1, move)
    if min(chars) < 0:
        return None
    return score, chars, [(first[i], last[i] + 1) for i in range(length)]
