"""A second, independent family of business test documents, made the way real ones are made.

The CPU engine's business readers were tuned rule by rule on ``synth/`` (documents drawn with
Pillow and fpdf2). Accuracy measured on the family a reader was tuned on says little about
documents made by other hands, so this package makes invoices, receipts, utility bills (proof of
address) and bank statements another way: HTML and CSS templates, filled from this package's own
small word lists, and printed by headless Chromium (``page.pdf()`` for digital PDFs with a text
layer, ``page.screenshot()`` for images), as billing systems produce real ones. Nothing here
imports ``synth``: not its code, vocabularies, layouts or name lists. The truth it writes follows
the same canonical conventions (ARCHITECTURE §3.1) so ``manage.py evaluate`` scores it unchanged.

Its evaluation seeds are held out (docs/engine/independent-documents.md): no document of them may
be used to fit or tune anything - rules, thresholds, calibration maps, prompts. The calibration
alone (its confidence maps, the layouts it knows and its thresholds per type: not the reading
rules) is fitted on documents of :data:`CALIBRATION_SEEDS`, so that it has seen more than one
generator (issue 47), and judged on the evaluation seeds it never saw. Every truth entry says
``"family": "htmldocs"`` in its meta.
"""

from __future__ import annotations

FAMILY = "htmldocs"
# Seeds of measurement sets (make var/bench/independent uses 900001): never fitted or tuned on.
EVALUATION_SEEDS = range(900_000, 1_000_000)
# Seeds the calibration may be fitted on (make calibration uses 800001); never the reading rules.
CALIBRATION_SEEDS = range(800_000, 900_000)
KINDS = ("invoice", "receipt", "proof_of_address", "bank_statement")


def is_evaluation_seed(seed: int) -> bool:
    """Whether ``seed`` is one of the reserved measurement seeds."""
    return seed in EVALUATION_SEEDS
