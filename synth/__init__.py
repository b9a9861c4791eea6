"""Synthetic identity documents (TD1 ID cards, TD2 cards, TD3 passports) with valid MRZs.

Real passports cannot be used to develop or benchmark a document reader, so this package draws
fictitious holders, encodes them in an ICAO 9303 machine-readable zone (every check digit from
``engines.mrz.checkdigit``), renders a visual zone over a security-like background and degrades
the result like a scanner or a phone camera would. Each document comes with its ground truth in
the ARCHITECTURE §3.1 conventions, taken from what the MRZ encodes.

Entry points:

- ``synth.documents.generate_document(rng, kind, profile)`` for tests and benchmarks;
- ``python -m synth.generate OUT_DIR --count N --seed S`` for a folder of images and ``truth.json``.

Everything is deterministic for a given seed (and the same installed fonts, see FONTS.md).
"""
