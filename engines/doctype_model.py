"""A fitted document-type classifier: multinomial logistic regression over a page set's words,
character n-grams and a few layout measures (issue 35, item 5).

Features, all from :class:`engines.layout.PageText` (so a text layer and OCR look alike):

* hashed word unigrams and bigrams (within a line) of folded text (lower case, accents dropped,
  "ß" as "ss", as :func:`engines.doctype_cues.fold_cue` folds it); numbers become
  their shape ("12,50" -> "9,9", "2024-04-04" -> "9-9-9"), so dates, amounts and times count as
  kinds of token, never as values;
* hashed character 3- to 5-grams within each word, padded ("<total>"): a word OCR misread by a
  letter ("tacture") still shares most of its n-grams with the word;
* a dozen layout measures: pages, lines, lines per page, share of lines with an amount, with a
  date at their start, with a time of day, the horizontal spread of the text (a receipt is a narrow
  strip), mean line width and length, text layer or OCR, mean recognition score;
* the type cues kept as data (engines/doctype_cues.py): per type, how many of its decisive,
  strong and supporting phrases the text holds, whether it prints the type's title, and
  structures such as an MRZ line, a till's item lines or a ledger's dated rows. The phrases are
  knowledge a person wrote down; how much each tier weighs is fitted here.

Each block (words, n-grams) is scaled to unit length, so a long statement and a short receipt
weigh alike; the dense measures (layout, cues) are standardised with the training set's mean and
spread. The fitted logits are divided by a temperature chosen on held-out documents (never below
1), so that the probability of the type chosen is not surer than the model has shown itself.

The model is fitted by L-BFGS on the class-balanced, L2-regularised cross-entropy from zero
weights: no randomness, the same texts give the same weights. Only hashed features seen in
training have weights; the artefact keeps those rows (float16) and a JSON header with the feature
configuration, classes, the engine version it was fitted on, the fit date, training seeds and
set sizes and the held-out accuracy. :func:`load` refuses an artefact fitted on another engine
version (:class:`EngineVersionMismatch`); :func:`current` returns the artefact of this engine
version, or None (nothing is then claimed: engines/classify.py).
"""

from __future__ import annotations

import functools
import json
import logging
import math
import re
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from engines import ENGINE_VERSION
from engines.doctype_cues import AMOUNT, DATED_ROW, cue_features, feature_names
from engines.doctype_cues import fold_cue as fold_text
from engines.layout import PageText
from engines.spec import DOCUMENT_TYPES

logger = logging.getLogger(__name__)

MODELS_DIR = Path(__file__).resolve().parent / "models"
FORMAT = 2

_DEFAULT_CONFIG: dict[str, Any] = {
    "hash_bits": 18,
    "char_ngrams": [3, 5],
    "word_block_weight": 1.0,
    "char_block_weight": 1.0,
    "layout_weight": 0.1,
    "cue_weight": 1.0,
}

_TOKEN = re.compile(r"[^\W\d_]+|\d+(?:[.,:/-]\d+)*")
_DIGITS = re.compile(r"\d+")
_TIME = re.compile(r"(?<![\d:])(?:[01]?\d|2[0-3]):[0-5]\d(?![\d])")

LAYOUT_FEATURES = (
    "log_pages",
    "log_lines",
    "log_lines_per_page",
    "amount_share",
    "dated_share",
    "time_share",
    "spread",
    "mean_width",
    "log_mean_chars",
    "text_layer",
    "mean_score",
    "short_line_share",
)


class EngineVersionMismatch(ValueError):
    """The artefact was fitted on another engine version: refit it (``make refit``)."""


def _hash(feature: str, bits: int) -> int:
    return zlib.crc32(feature.encode("utf-8")) & ((1 << bits) - 1)


@functools.lru_cache(maxsize=200_000)
def _word_features(word: str, bits: int, low: int, high: int) -> tuple[int, ...]:
    """The hashed unigram of ``word`` and its padded character n-grams (letters only)."""
    out = [_hash("w:" + word, bits)]
    if word.isalpha():
        padded = f"<{word}>"
        for n in range(low, high + 1):
            out.extend(_hash(f"c{n}:" + padded[i : i + n], bits) for i in range(len(padded) - n + 1))
    return tuple(out)


@functools.lru_cache(maxsize=200_000)
def _bigram(previous: str, token: str, bits: int) -> int:
    return _hash(f"b:{previous} {token}", bits)


def _token(raw: str) -> str:
    return _DIGITS.sub("9", raw) if raw[0].isdigit() else raw


@dataclass(frozen=True)
class Features:
    """One document's sparse hashed features (indices, values) and dense layout measures."""

    indices: np.ndarray  # int64, sorted, unique
    values: np.ndarray  # float64
    layout: np.ndarray  # float64, len(dense_feature_names()): layout measures, then cues


def features(pages: Sequence[PageText], config: dict[str, Any] | None = None) -> Features:
    """The features of a page set; deterministic (crc32 hashing, no process-salted ``hash``)."""
    config = config or _DEFAULT_CONFIG
    bits = int(config["hash_bits"])
    low, high = (int(v) for v in config["char_ngrams"])
    word_ids: list[int] = []
    char_ids: list[int] = []
    lines = [line for page in pages for line in page.lines]
    for line in lines:
        previous = "^"
        for raw in _TOKEN.findall(fold_text(line.text)):
            token = _token(raw)
            word_feats = _word_features(token, bits, low, high)
            word_ids.append(word_feats[0])
            char_ids.extend(word_feats[1:])
            word_ids.append(_bigram(previous, token, bits))
            previous = token
    blocks = []
    for ids, weight in ((word_ids, config["word_block_weight"]), (char_ids, config["char_block_weight"])):
        if not ids:
            continue
        keys, counts = np.unique(np.array(ids, dtype=np.int64), return_counts=True)
        logged = 1.0 + np.log(counts)
        blocks.append((keys, weight * logged / np.sqrt((logged * logged).sum())))
    if blocks:
        keys = np.concatenate([k for k, _ in blocks])
        vals = np.concatenate([v for _, v in blocks])
        indices, inverse = np.unique(keys, return_inverse=True)
        values: np.ndarray = np.bincount(inverse, weights=vals, minlength=len(indices)).astype(np.float64)
    else:
        indices, values = np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64)
    dense = np.concatenate([_layout(pages, lines), cue_features(pages)])
    return Features(indices=indices.astype(np.int64), values=values, layout=dense)


def dense_feature_names() -> tuple[str, ...]:
    """The dense measures' names in order: the layout's, then the cues' (recorded in the artefact)."""
    return LAYOUT_FEATURES + feature_names()


def _dense_multiplier(config: dict[str, Any]) -> np.ndarray:
    """How much each standardised dense measure counts: the layout's at ``layout_weight`` (at
    full weight they made short hand-made pages receipts), the cues' at ``cue_weight``."""
    cue_count = len(dense_feature_names()) - len(LAYOUT_FEATURES)
    return np.concatenate(
        [
            np.full(len(LAYOUT_FEATURES), float(config["layout_weight"])),
            np.full(cue_count, float(config["cue_weight"])),
        ]
    )


def _layout(pages: Sequence[PageText], lines: Sequence[Any]) -> np.ndarray:
    n_pages = max(len(pages), 1)
    n = len(lines)
    if n == 0:
        return np.array([math.log(n_pages), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], dtype=np.float64)
    texts = [line.text for line in lines]
    widths = [max(0.0, line.bbox[2] - line.bbox[0]) for line in lines]
    spread = max(line.bbox[2] for line in lines) - min(line.bbox[0] for line in lines)
    return np.array(
        [
            math.log(n_pages),
            math.log1p(n),
            math.log1p(n / n_pages),
            sum(1 for t in texts if AMOUNT.search(t)) / n,
            sum(1 for t in texts if DATED_ROW.match(t)) / n,
            sum(1 for t in texts if _TIME.search(t)) / n,
            spread,
            sum(widths) / n,
            math.log1p(sum(len(t) for t in texts) / n),
            sum(1 for p in pages if p.source == "text_layer") / n_pages,
            sum(line.score for line in lines) / n,
            sum(1 for t in texts if len(t) <= 12) / n,
        ],
        dtype=np.float64,
    )


@dataclass(frozen=True)
class Classification:
    """A page set's type, how sure, and the probability of every type."""

    document_type: str
    confidence: float
    probabilities: dict[str, float]


@dataclass(frozen=True)
class DoctypeModel:
    """Weights of the softmax over ``classes``: hashed rows ``rows`` (sorted) with ``weights``
    (len(rows) x classes), layout weights after standardising, and a bias per class."""

    classes: tuple[str, ...]
    rows: np.ndarray  # int64, sorted
    weights: np.ndarray  # float32 (rows x classes)
    layout_weights: np.ndarray  # float32 (len(LAYOUT_FEATURES) x classes)
    layout_mean: np.ndarray
    layout_scale: np.ndarray
    bias: np.ndarray  # float32 (classes)
    config: dict[str, Any] = field(default_factory=lambda: dict(_DEFAULT_CONFIG))
    meta: dict[str, Any] = field(default_factory=dict)

    def with_meta(self, **meta: Any) -> DoctypeModel:
        return replace(self, meta={**self.meta, **meta})

    def logits(self, feats: Features) -> np.ndarray:
        out = self.bias.astype(np.float64).copy()
        positions = np.searchsorted(self.rows, feats.indices)
        positions = np.minimum(positions, len(self.rows) - 1)
        known = self.rows[positions] == feats.indices
        if known.any():
            out += feats.values[known] @ self.weights[positions[known]].astype(np.float64)
        layout = (feats.layout - self.layout_mean) / self.layout_scale * _dense_multiplier(self.config)
        out += layout @ self.layout_weights.astype(np.float64)
        return out / float(self.meta.get("temperature", 1.0))

    def probabilities(self, pages: Sequence[PageText]) -> dict[str, float]:
        """Probabilities over :data:`engines.spec.DOCUMENT_TYPES` (0 for a type never fitted)."""
        logits = self.logits(features(pages, self.config))
        p = np.exp(logits - logits.max())
        p /= p.sum()
        by_class = dict(zip(self.classes, p.tolist(), strict=True))
        return {t: by_class.get(t, 0.0) for t in DOCUMENT_TYPES}

    def predict(self, pages: Sequence[PageText]) -> Classification:
        probabilities = self.probabilities(pages)
        best = max(probabilities, key=lambda t: probabilities[t])
        return Classification(best, probabilities[best], probabilities)


# ------------------------------------------------------------------------------------- fitting


def fit(
    documents: Sequence[Sequence[PageText]],
    labels: Sequence[str],
    *,
    l2: float = 1e-4,
    iterations: int = 300,
    config: dict[str, Any] | None = None,
    balanced: bool = True,
) -> DoctypeModel:
    """Fit the softmax by L-BFGS from zero weights (deterministic). ``l2`` is the penalty on
    the weights (not the biases) per training document; classes are weighted to equal totals
    when ``balanced``."""
    config = {**_DEFAULT_CONFIG, **(config or {})}
    if len(documents) != len(labels) or not documents:
        raise ValueError("need as many labels as documents, and at least one")
    classes = tuple(t for t in DOCUMENT_TYPES if t in set(labels))
    unknown = set(labels) - set(classes)
    if unknown:
        raise ValueError(f"labels outside DOCUMENT_TYPES: {sorted(unknown)}")
    feats = [features(pages, config) for pages in documents]
    y = np.array([classes.index(label) for label in labels])
    n, c = len(feats), len(classes)
    counts = np.bincount(y, minlength=c).astype(np.float64)
    sample_w = (n / (c * counts))[y] if balanced else np.ones(n)
    sample_w /= sample_w.sum()

    # sparse design over the features seen, as CSR arrays
    rows = np.unique(np.concatenate([f.indices for f in feats]))
    col = np.concatenate([np.searchsorted(rows, f.indices) for f in feats])
    val = np.concatenate([f.values for f in feats])
    doc_of = np.repeat(np.arange(n), [len(f.indices) for f in feats])
    layout = np.stack([f.layout for f in feats])
    mean = layout.mean(axis=0)
    scale = layout.std(axis=0)
    scale[scale < 1e-6] = 1.0
    dense = (layout - mean) / scale * _dense_multiplier(config)
    d_sparse, d_dense = len(rows), dense.shape[1]
    onehot = np.zeros((n, c))
    onehot[np.arange(n), y] = 1.0

    def unpack(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        w = theta[: d_sparse * c].reshape(d_sparse, c)
        v = theta[d_sparse * c : (d_sparse + d_dense) * c].reshape(d_dense, c)
        b = theta[(d_sparse + d_dense) * c :]
        return w, v, b

    def loss_grad(theta: np.ndarray) -> tuple[float, np.ndarray]:
        w, v, b = unpack(theta)
        z = np.zeros((n, c))
        for k in range(c):
            z[:, k] = np.bincount(doc_of, weights=val * w[col, k], minlength=n)
        z += dense @ v + b
        z -= z.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        loss = -float((sample_w * (logp * onehot).sum(axis=1)).sum())
        loss += 0.5 * l2 * float((w * w).sum() + (v * v).sum())
        g = (np.exp(logp) - onehot) * sample_w[:, None]
        gw = (
            np.stack(
                [np.bincount(col, weights=val * g[doc_of, k], minlength=d_sparse) for k in range(c)], axis=1
            ).astype(np.float64)
            + l2 * w
        )
        gv = dense.T @ g + l2 * v
        gb = g.sum(axis=0)
        return loss, np.concatenate([gw.ravel(), gv.ravel(), gb])

    theta = _lbfgs(loss_grad, np.zeros((d_sparse + d_dense + 1) * c), iterations)
    w, v, b = unpack(theta)
    keep = np.abs(w).max(axis=1) >= 1e-4  # prune what the fit left at (nearly) nothing
    return DoctypeModel(
        classes=classes,
        rows=rows[keep].astype(np.int64),
        weights=w[keep].astype(np.float32),
        layout_weights=v.astype(np.float32),
        layout_mean=mean,
        layout_scale=scale,
        bias=b.astype(np.float32),
        config=config,
        meta={"l2": l2, "iterations": iterations, "balanced": balanced, "format": FORMAT},
    )


def tempered(
    model: DoctypeModel, documents: Sequence[Sequence[PageText]], labels: Sequence[str]
) -> DoctypeModel:
    """``model`` with the temperature (1 to 10) that gives the held-out ``documents`` the least
    log-loss: an L2-regularised softmax fitted to separate its training set is surer than it is
    right. Never below 1: a held-out set of generated documents is easier than the world."""
    plain = replace(model, meta={k: v for k, v in model.meta.items() if k != "temperature"})
    logits = np.stack([plain.logits(features(pages, model.config)) for pages in documents])
    truth = np.array([model.classes.index(label) for label in labels])

    def log_loss(temperature: float) -> float:
        z = logits / temperature
        z -= z.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        return -float(logp[np.arange(len(truth)), truth].mean())

    grid = [1.0 + 0.05 * i for i in range(181)]
    best = min(grid, key=log_loss)
    return plain.with_meta(temperature=round(best, 2))


def _lbfgs(fun: Any, x: np.ndarray, iterations: int, memory: int = 10, tolerance: float = 1e-7) -> np.ndarray:
    """Minimise ``fun`` (returning loss and gradient) by L-BFGS with a backtracking Armijo search."""
    loss, grad = fun(x)
    s_list: list[np.ndarray] = []
    y_list: list[np.ndarray] = []
    for _ in range(iterations):
        q = grad.copy()
        alphas = []
        for s, yv in zip(reversed(s_list), reversed(y_list), strict=True):
            a = float(s @ q) / float(yv @ s)
            alphas.append(a)
            q -= a * yv
        if s_list:
            q *= float(s_list[-1] @ y_list[-1]) / float(y_list[-1] @ y_list[-1])
        for (s, yv), a in zip(zip(s_list, y_list, strict=True), reversed(alphas), strict=True):
            bv = float(yv @ q) / float(yv @ s)
            q += s * (a - bv)
        direction = -q
        slope = float(grad @ direction)
        if slope >= 0:  # not a descent direction: start the memory afresh
            s_list.clear()
            y_list.clear()
            direction, slope = -grad, -float(grad @ grad)
        step = 1.0 if s_list else min(1.0, 1.0 / max(float(np.abs(grad).sum()), 1e-12))
        while True:
            new_x = x + step * direction
            new_loss, new_grad = fun(new_x)
            if new_loss <= loss + 1e-4 * step * slope or step < 1e-12:
                break
            step *= 0.5
        s, yv = new_x - x, new_grad - grad
        if float(s @ yv) > 1e-12:
            s_list.append(s)
            y_list.append(yv)
            if len(s_list) > memory:
                s_list.pop(0)
                y_list.pop(0)
        converged = abs(loss - new_loss) <= tolerance * max(1.0, abs(loss))
        x, loss, grad = new_x, new_loss, new_grad
        if converged or float(np.abs(grad).max()) < 1e-9:
            break
    return x


# ------------------------------------------------------------------------------------ artefact


def artefact_path(engine_version: str = ENGINE_VERSION) -> Path:
    return MODELS_DIR / f"doctype-{engine_version}.npz"


def save(model: DoctypeModel, path: Path) -> None:
    header = {
        "format": FORMAT,
        "classes": list(model.classes),
        "config": model.config,
        "layout_features": list(dense_feature_names()),
        **{k: v for k, v in model.meta.items() if k not in {"format"}},
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        np.savez_compressed(
            handle,
            header=np.array(json.dumps(header, sort_keys=True)),
            rows=model.rows.astype(np.int32),
            weights=model.weights.astype(np.float16),
            layout_weights=model.layout_weights.astype(np.float32),
            layout_mean=model.layout_mean.astype(np.float64),
            layout_scale=model.layout_scale.astype(np.float64),
            bias=model.bias.astype(np.float32),
        )


def load(path: Path, *, engine_version: str | None = ENGINE_VERSION) -> DoctypeModel:
    """Read an artefact. Raises :class:`EngineVersionMismatch` when it was fitted on another
    engine version than ``engine_version`` (None: accept any, for inspection and tests)."""
    with np.load(path, allow_pickle=False) as data:
        header = json.loads(str(data["header"]))
        if header.get("format") != FORMAT:
            raise ValueError(f"{path}: artefact format {header.get('format')}, expected {FORMAT}")
        fitted_on = header.get("engine_version")
        if engine_version is not None and fitted_on != engine_version:
            raise EngineVersionMismatch(
                f"{path} was fitted on engine {fitted_on}, this is engine {engine_version}: refit it"
            )
        if list(header.get("layout_features", [])) != list(dense_feature_names()):
            raise ValueError(f"{path}: its layout and cue features differ from this code's; refit it")
        meta = {k: v for k, v in header.items() if k not in {"classes", "config", "layout_features"}}
        return DoctypeModel(
            classes=tuple(header["classes"]),
            rows=data["rows"].astype(np.int64),
            weights=data["weights"].astype(np.float32),
            layout_weights=data["layout_weights"].astype(np.float32),
            layout_mean=data["layout_mean"],
            layout_scale=data["layout_scale"],
            bias=data["bias"].astype(np.float32),
            config=header["config"],
            meta=meta,
        )


@functools.lru_cache(maxsize=1)
def current() -> DoctypeModel | None:
    """The artefact fitted on this engine version, or None (logged once) where there is none."""
    path = artefact_path()
    if not path.exists():
        others = sorted(p.name for p in MODELS_DIR.glob("doctype-*.npz")) if MODELS_DIR.exists() else []
        logger.warning(
            "No document-type model for engine %s (%s): every page without identity evidence goes to review%s",
            ENGINE_VERSION,
            path.name,
            f"; found {', '.join(others)}: refit (make refit)" if others else "",
        )
        return None
    try:
        return load(path)
    except ValueError as exc:  # an artefact of an older format or other features: not this engine's
        logger.warning("Document-type model %s not used: %s", path.name, exc)
        return None
