"""Read a US or Canadian driver licence: the AAMVA barcode on the back, the printed front, and
whether the two agree.

One place for everything the licence reader needs, so that the barcode parser and the front
reader are found side by side:

    reader        the entry points (``read_driver_license``, ``looks_like_driver_license``): the
                  printed front read by its labels, merged with the barcode and cross-checked
    barcode       the licence's barcode as the reader reports it: the PDF417 that holds an AAMVA
                  payload found (decoding is :mod:`engines.barcode`'s), parsed or why not, and the
                  checks on what the barcode alone cannot settle
    aamva         the AAMVA DL/ID payload parsed into the field spec's fields
    aamva_header  the payload's header and subfiles, read as the card declares them
    aamva_split   elements a scanner ran together, split where the standard's ids stand
    aamva_names   the holder's name in each layout the standard's versions allow
    aamva_iin     the issuing jurisdiction from the header's IIN
    aamva_data    the standard's tables (``engines/knowledge/aamva.toml``), read and checked once

Module and package names here spell "licence". The document type ``driver_license`` and its
field names are spelled as the API publishes them: a public contract, left as it is, and the
entry points keep the document type's name.
"""
