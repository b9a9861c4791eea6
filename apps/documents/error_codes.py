"""Operator-readable error codes a document can fail with (``Document.error_code``)."""

UNSUPPORTED_FILE_TYPE = "unsupported_file_type"
FILE_TOO_LARGE = "file_too_large"
EMPTY_FILE = "empty_file"
UNREADABLE_IMAGE = "unreadable_image"
IMAGE_TOO_LARGE = "image_too_large"
CORRUPT_PDF = "corrupt_pdf"
ENCRYPTED_PDF = "encrypted_pdf"
TOO_MANY_PAGES = "too_many_pages"
POLYGLOT_FILE = "polyglot_file"  # an image (or PDF) that is also a web page
PDF_ACTIVE_CONTENT = "pdf_active_content"  # JavaScript, launch actions or embedded files
PDF_DECOMPRESSION_BOMB = "pdf_decompression_bomb"  # a stream expands beyond the limits (media.pdf_guard)
# rendering needed more memory or CPU than allowed (media.pdf_sandbox)
PDF_RESOURCE_LIMIT = "pdf_resource_limit"
PDF_RENDER_CRASHED = "pdf_render_crashed"  # the renderer died on the file (media.pdf_sandbox)
BLOB_MISSING = "blob_missing"
INFERENCE_FAILED = "inference_failed"
MAX_ATTEMPTS_EXCEEDED = "max_attempts_exceeded"
# waited on an outage (Triton, the model engine, a master key not loaded) longer than
# DOCINTEL_UNAVAILABLE_WINDOW_S: apps.documents.unavailability
UNAVAILABLE_TIMEOUT = "unavailable_timeout"
INTERNAL_ERROR = "internal_error"
