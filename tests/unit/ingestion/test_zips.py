"""Unpacking uploaded zips: every member becomes a document, and no archive can blow up memory."""

import io
import struct
import zipfile

import pytest

from apps.ingestion.zips import (
    ArchiveMember,
    ArchiveRejectedError,
    MemberRejected,
    ZipLimits,
    archive_members,
)

LIMITS = ZipLimits(max_members=5, max_expanded_bytes=10_000_000, max_ratio=100, max_member_bytes=5_000_000)


def _zip(members: dict[str, bytes], *, compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def _outcomes(content: bytes, limits: ZipLimits = LIMITS) -> dict[str, ArchiveMember | MemberRejected]:
    return {m.name: m for m in archive_members(content, limits)}


def test_every_member_comes_out_with_its_bytes_in_order():
    content = _zip({"scans/a.png": b"\x89PNG first", "b.pdf": b"%PDF-1.7 second"})
    members = list(archive_members(content, LIMITS))
    assert [(m.name, m.content) for m in members if isinstance(m, ArchiveMember)] == [
        ("scans/a.png", b"\x89PNG first"),
        ("b.pdf", b"%PDF-1.7 second"),
    ]


def test_folders_and_desktop_junk_are_skipped_silently():
    content = _zip({"a.png": b"png", "__MACOSX/._a.png": b"fork", ".DS_Store": b"x", "dir/Thumbs.db": b"x"})
    assert list(_outcomes(content)) == ["a.png"]


def test_a_zip_inside_the_zip_is_refused_as_a_member_not_unpacked():
    inner = _zip({"x.png": b"png"})
    outcomes = _outcomes(_zip({"inner.zip": inner, "a.png": b"png"}))
    assert (
        isinstance(outcomes["inner.zip"], MemberRejected) and outcomes["inner.zip"].code == "nested_archive"
    )
    assert isinstance(outcomes["a.png"], ArchiveMember)


def test_more_members_than_allowed_refuses_the_whole_archive_before_reading_any():
    content = _zip({f"{i}.png": b"png" for i in range(LIMITS.max_members + 1)})
    with pytest.raises(ArchiveRejectedError) as refused:
        archive_members(content, LIMITS)
    assert refused.value.code == "archive_too_many_members" and "6 files" in refused.value.message


def test_an_archive_declaring_more_expanded_bytes_than_allowed_is_refused():
    small = ZipLimits(max_members=5, max_expanded_bytes=1000, max_ratio=100, max_member_bytes=900)
    with pytest.raises(ArchiveRejectedError) as refused:
        archive_members(_zip({"a.png": b"a" * 600, "b.png": b"b" * 600}), small)
    assert refused.value.code == "archive_too_large"


def test_a_member_compressed_like_a_bomb_is_refused():
    outcomes = _outcomes(_zip({"bomb.png": b"\0" * 3_000_000, "a.png": b"png"}))
    assert outcomes["bomb.png"].code == "suspicious_compression"  # type: ignore[union-attr]
    assert isinstance(outcomes["a.png"], ArchiveMember)


def test_a_member_larger_than_the_upload_limit_is_refused():
    small = ZipLimits(max_members=5, max_expanded_bytes=10_000, max_ratio=100, max_member_bytes=100)
    outcomes = _outcomes(
        _zip({"big.png": b"x" * 500, "a.png": b"png"}, compression=zipfile.ZIP_STORED), small
    )
    assert outcomes["big.png"].code == "file_too_large"  # type: ignore[union-attr]
    assert isinstance(outcomes["a.png"], ArchiveMember)


def test_a_member_whose_header_understates_its_size_is_never_inflated_past_it():
    """GIVEN a zip whose directory says a member is 10 bytes while it inflates to 2 MB,
    WHEN it is unpacked, THEN the member is refused instead of being read in full."""
    content = bytearray(_zip({"liar.png": b"\x89PNG" + b"\0" * 2_000_000}))
    central = content.rindex(b"PK\x01\x02")
    struct.pack_into("<I", content, central + 24, 10)  # uncompressed size in the central directory
    struct.pack_into("<I", content, 22, 10)  # and in the local header
    outcomes = _outcomes(bytes(content))
    assert isinstance(outcomes["liar.png"], MemberRejected)


def test_a_corrupt_archive_is_refused_whole():
    with pytest.raises(ArchiveRejectedError) as refused:
        archive_members(b"PK\x03\x04" + b"\x00" * 100, LIMITS)
    assert refused.value.code == "corrupt_archive"


def test_an_archive_of_nothing_is_refused():
    with pytest.raises(ArchiveRejectedError) as refused:
        archive_members(_zip({"folder/": b""}), LIMITS)
    assert refused.value.code == "empty_archive"
