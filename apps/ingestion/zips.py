"""Unpacking an uploaded zip into its members, safely.

A zip is a convenience for operators (a scanner's export, a customer's folder of documents): each
member becomes a document of its own. Zips are also the classic carrier of decompression bombs,
so nothing here trusts the archive's directory. The declared member count and sizes are checked
first, which refuses an obvious bomb cheaply and with a clear message; then every member is
inflated in chunks against hard caps on the bytes actually produced (per member, per archive, and
per compressed byte), which a forged header cannot get around. Members are inflated one at a time
and handed over as they come, so at most one member's plaintext is in memory, and none touches
the disk.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import PurePosixPath

from django.template.defaultfilters import filesizeformat

from apps.documents import error_codes as document_errors
from apps.ingestion import error_codes

# A local file header starts every non-empty archive; an empty one is just its end record.
_ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")
_CHUNK = 1024 * 1024
# Below this many inflated bytes a member is harmless whatever its compression ratio (a page of
# text compresses far better than 100:1), so the ratio is only held against larger members.
_RATIO_FLOOR_BYTES = 1024 * 1024
# Files that archivers and desktops add beside the real content: skipped, not reported.
_JUNK_NAMES = frozenset({"thumbs.db", "desktop.ini"})


def is_zip(head: bytes) -> bool:
    """Recognised from the bytes, like every other upload type, never from the file's name."""
    return head.startswith(_ZIP_MAGIC)


@dataclass(frozen=True)
class ZipLimits:
    max_members: int
    max_expanded_bytes: int
    max_ratio: int
    max_member_bytes: int


@dataclass(frozen=True)
class ArchiveMember:
    name: str  # the member's path inside the archive
    content: bytes


@dataclass(frozen=True)
class MemberRejected:
    name: str
    code: str
    message: str


class ArchiveRejectedError(Exception):
    """The archive as a whole is refused; nothing in it is stored."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _is_junk(info: zipfile.ZipInfo) -> bool:
    base = PurePosixPath(info.filename).name
    return (
        info.is_dir()
        or info.filename.startswith("__MACOSX/")
        or base.startswith(".")
        or base.lower() in _JUNK_NAMES
    )


def _unsafe_path(name: str) -> bool:
    """A member name that would leave the folder it is unpacked into (``../``, an absolute or a
    drive path): nothing here writes members to disk, but such an archive is hostile, not sloppy."""
    posix = name.replace("\\", "/")
    return (
        posix.startswith("/")
        or (len(posix) > 1 and posix[1] == ":")
        or "\0" in posix
        or ".." in PurePosixPath(posix).parts
    )


def archive_members(
    content: bytes, limits: ZipLimits, *, strict: bool = False
) -> Iterator[ArchiveMember | MemberRejected]:
    """The archive's members in order, each either its bytes or the reason it was refused.

    Raises ``ArchiveRejectedError`` at once (before yielding anything) for an archive that is
    corrupt, empty, has too many members, declares more expanded bytes than allowed, or has a
    member whose path leaves the archive (``../``, absolute paths). ``strict`` (the REST API's
    batches) also refuses the whole archive, before inflating anything, when any member's
    header declares a bomb's compression ratio, a size over the per-file limit, or a password.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
        entries = [info for info in archive.infolist() if not _is_junk(info)]
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError) as exc:
        raise ArchiveRejectedError(
            error_codes.CORRUPT_ARCHIVE, "the zip file is corrupt or truncated"
        ) from exc
    if not entries:
        raise ArchiveRejectedError(error_codes.EMPTY_ARCHIVE, "the zip file contains no files")
    if len(entries) > limits.max_members:
        raise ArchiveRejectedError(
            error_codes.ARCHIVE_TOO_MANY_MEMBERS,
            f"the zip file holds {len(entries)} files; the limit is {limits.max_members}",
        )
    unsafe = next((info.filename for info in entries if _unsafe_path(info.filename)), None)
    if unsafe is not None:
        raise ArchiveRejectedError(
            error_codes.UNSAFE_MEMBER_PATH,
            "the zip file has a member outside its folder (../ or an absolute path)",
        )
    declared = sum(info.file_size for info in entries)
    if declared > limits.max_expanded_bytes:
        raise ArchiveRejectedError(error_codes.ARCHIVE_TOO_LARGE, _expands_beyond(limits))
    if strict:
        for info in entries:
            refusal = _refuse_from_header(info, limits, limits.max_expanded_bytes)
            if refusal is not None:
                raise ArchiveRejectedError(refusal[0], f"{info.filename}: {refusal[1]}")
    return _inflate_members(archive, entries, limits)


def _expands_beyond(limits: ZipLimits) -> str:
    return f"the zip file expands to more than the {filesizeformat(limits.max_expanded_bytes)} limit"


def _inflate_members(
    archive: zipfile.ZipFile, entries: list[zipfile.ZipInfo], limits: ZipLimits
) -> Iterator[ArchiveMember | MemberRejected]:
    budget = limits.max_expanded_bytes  # bytes the rest of the archive may still inflate to
    with archive:
        for info in entries:
            name = info.filename
            refusal = _refuse_from_header(info, limits, budget)
            if refusal is not None:
                yield MemberRejected(name, *refusal)
                continue
            ratio_cap = max(info.compress_size * limits.max_ratio, _RATIO_FLOOR_BYTES)
            cap = min(limits.max_member_bytes, budget, ratio_cap)
            try:
                data = _inflate(archive, info, cap)
            except (zipfile.BadZipFile, zlib.error, NotImplementedError, RuntimeError, OSError, EOFError):
                yield MemberRejected(
                    name, error_codes.UNREADABLE_MEMBER, "this file in the zip is corrupt and cannot be read"
                )
                continue
            if data is None:  # the header lied about the size: whichever cap bit first says why
                yield MemberRejected(name, *_cap_reason(cap, limits, budget))
                if cap == budget:
                    budget = 0
                continue
            budget -= len(data)
            if is_zip(data[:4]):
                yield MemberRejected(
                    name,
                    error_codes.NESTED_ARCHIVE,
                    "zip files inside a zip are not unpacked; upload that zip on its own",
                )
                continue
            yield ArchiveMember(name, data)


def _refuse_from_header(info: zipfile.ZipInfo, limits: ZipLimits, budget: int) -> tuple[str, str] | None:
    if info.flag_bits & 0x1:
        return error_codes.ENCRYPTED_MEMBER, "password-protected files in a zip cannot be read"
    if info.file_size > limits.max_member_bytes:
        return document_errors.FILE_TOO_LARGE, (
            f"the file is larger than the {filesizeformat(limits.max_member_bytes)} limit"
        )
    if info.file_size > budget:
        return error_codes.ARCHIVE_TOO_LARGE, _expands_beyond(limits)
    if info.file_size > _RATIO_FLOOR_BYTES and info.file_size > info.compress_size * limits.max_ratio:
        return error_codes.SUSPICIOUS_COMPRESSION, (
            f"the file is compressed more than {limits.max_ratio}:1, which only zip bombs are"
        )
    return None


def _cap_reason(cap: int, limits: ZipLimits, budget: int) -> tuple[str, str]:
    if cap == limits.max_member_bytes:
        return document_errors.FILE_TOO_LARGE, (
            f"the file is larger than the {filesizeformat(limits.max_member_bytes)} limit"
        )
    if cap == budget:
        return error_codes.ARCHIVE_TOO_LARGE, _expands_beyond(limits)
    return error_codes.SUSPICIOUS_COMPRESSION, (
        f"the file is compressed more than {limits.max_ratio}:1, which only zip bombs are"
    )


def _inflate(archive: zipfile.ZipFile, info: zipfile.ZipInfo, cap: int) -> bytes | None:
    """The member's bytes, or None as soon as it inflates past ``cap`` (not reading the rest)."""
    chunks: list[bytes] = []
    total = 0
    with archive.open(info) as handle:
        while True:
            chunk = handle.read(min(_CHUNK, cap + 1 - total))
            if not chunk:
                return b"".join(chunks)
            total += len(chunk)
            if total > cap:
                return None
            chunks.append(chunk)
