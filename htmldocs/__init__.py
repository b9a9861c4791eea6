"""A second, independent family of business test documents, made the way real ones are made.

The CPU engine's business readers were tuned rule by rule on ``synth/`` (documents drawn with
Pillow and fpdf2). Accuracy measured on the family a reader was tuned on says little about
documents made by other hands, so this package makes invoices, receipts, utility bills (proof of
address) and bank statements another way: HTML and CSS templates, filled from this package's own
small word lists, and printed by headless Chromium (``page.pdf()`` for digital PDFs with a text
layer, ``page.screenshot()`` for images), as billing systems produce real ones. Nothing here
imports ``synth``: not its code, vocabularies, layouts or name lists. The truth it writes follows
the same canonical conventions (ARCHITECTURE §3.1) so ``manage.py evaluate`` scores it unchanged.

Its seeds are held out (docs/engine/independent-documents.md): no document of this family may be
used to fit or tune anything - rules, thresholds, calibration maps, prompts. Evaluation sets are
drawn from :data:`EVALUATION_SEEDS`; every truth entry says ``"family": "htmldocs"`` in its meta so
that fitting tools can refuse it.
"""

from __future__ import annotations

FAMILY = "htmldocs"
# Seeds of measurement sets (make var/bench/independent uses 900001). Seeds below are for the
# generator's own tests; no seed of this family is ever used to fit or tune the engine.
EVALUATION_SEEDS = range(900_000, 1_000_000)
KINDS = ("invoice", "receipt", "proof_of_address", "bank_statement")


def is_evaluation_seed(seed: int) -> bool:
    """Whether ``seed`` is one of the reserved measurement seeds."""
    return seed in EVALUATION_SEEDS
