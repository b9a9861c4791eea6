"""ICAO 9303 machine-readable zones: check digits, parsing, OCR repair and reading from images."""
