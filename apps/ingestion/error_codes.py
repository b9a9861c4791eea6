"""Reasons an upload (or one member of an uploaded zip) is refused before any document exists.

They sit beside the document error codes of ``apps.documents.error_codes`` (``file_too_large``,
``unsupported_file_type``, ``too_many_pages``, ...), which the upload service raises itself.
"""

NO_TENANT = "no_tenant"
DUPLICATE = "duplicate"
CORRUPT_ARCHIVE = "corrupt_archive"
EMPTY_ARCHIVE = "empty_archive"
ARCHIVE_TOO_MANY_MEMBERS = "archive_too_many_members"
ARCHIVE_TOO_LARGE = "archive_too_large"
SUSPICIOUS_COMPRESSION = "suspicious_compression"
NESTED_ARCHIVE = "nested_archive"
ENCRYPTED_MEMBER = "encrypted_member"
UNREADABLE_MEMBER = "unreadable_member"
UNSAFE_MEMBER_PATH = "unsafe_member_path"
