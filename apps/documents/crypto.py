"""Envelope encryption for documents at rest (AES-256-GCM).

Each document gets its own random data key; only that key, wrapped (encrypted) under the master
key, is stored in the database. Rotating the master key means re-wrapping small keys, not
re-encrypting blobs, and a leaked blob is useless without both the row and the master key.

A wrapped key names the master key it is wrapped under (:func:`key_id`: a one-way fingerprint that
tells nothing of the key), so a process that does not hold that key can tell "not loaded here yet"
(a rolling deploy after a rotation: :class:`KeyNotLoadedError`, waited out) from a key or blob
that does not open (:class:`DecryptionError`). Keys wrapped before key ids carry none and are
tried under every configured master key, as before.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import threading
from pathlib import Path

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

_MAGIC = b"DIB1"  # DocIntel blob, format 1: magic | 12-byte nonce | ciphertext+tag
_WRAPPED_MAGIC = b"DIK1"  # DocIntel wrapped key, format 1: magic | master key id | a DIB1 blob
_KEY_ID_BYTES = 8
_NONCE_BYTES = 12
_KEY_BYTES = 32


class DecryptionError(Exception):
    """The ciphertext, its associated data or the key do not match: tampering or a wrong key."""


class KeyNotLoadedError(DecryptionError):
    """The data key is wrapped under a master key this process does not hold (yet): not the
    document's fault, and another process, or this one once restarted with the key, can read it."""

    def __init__(self, key_id: bytes) -> None:
        super().__init__(f"data key wrapped under master key {key_id.hex()}, not loaded in this process")
        self.key_id = key_id


def key_id(master_key: bytes) -> bytes:
    """A master key's public name: 8 bytes of an HMAC under the key itself (one-way)."""
    return hmac.new(master_key, b"docintel master key id", hashlib.sha256).digest()[:_KEY_ID_BYTES]


def new_data_key() -> bytes:
    return AESGCM.generate_key(bit_length=_KEY_BYTES * 8)


def encrypt(key: bytes, plaintext: bytes, *, associated_data: bytes) -> bytes:
    """``associated_data`` binds a ciphertext to its place (document id + blob name), so blobs
    cannot be swapped between documents without detection."""
    nonce = os.urandom(_NONCE_BYTES)
    return _MAGIC + nonce + AESGCM(key).encrypt(nonce, plaintext, associated_data)


def decrypt(key: bytes, blob: bytes, *, associated_data: bytes) -> bytes:
    if not blob.startswith(_MAGIC) or len(blob) < len(_MAGIC) + _NONCE_BYTES + 16:
        raise DecryptionError("not a DocIntel encrypted blob")
    nonce = blob[len(_MAGIC) : len(_MAGIC) + _NONCE_BYTES]
    try:
        return AESGCM(key).decrypt(nonce, blob[len(_MAGIC) + _NONCE_BYTES :], associated_data)
    except InvalidTag as exc:
        raise DecryptionError("blob failed authentication") from exc


def wrap_key(master_key: bytes, data_key: bytes, *, document_id: str) -> bytes:
    """``data_key`` encrypted under ``master_key``, prefixed with the master key's id."""
    sealed = encrypt(master_key, data_key, associated_data=b"data-key:" + document_id.encode())
    return _WRAPPED_MAGIC + key_id(master_key) + sealed


def _sealed_part(wrapped: bytes) -> tuple[bytes | None, bytes]:
    """(the master key's id or None for a key wrapped before ids, the encrypted data key)."""
    if wrapped.startswith(_WRAPPED_MAGIC):
        start = len(_WRAPPED_MAGIC)
        return wrapped[start : start + _KEY_ID_BYTES], wrapped[start + _KEY_ID_BYTES :]
    return None, wrapped


def unwrap_key(master_key: bytes, wrapped: bytes, *, document_id: str) -> bytes:
    _, sealed = _sealed_part(wrapped)
    return decrypt(master_key, sealed, associated_data=b"data-key:" + document_id.encode())


def unwrap_key_any(master_keys: list[bytes], wrapped: bytes, *, document_id: str) -> tuple[bytes, int]:
    """The data key and the index of the master key in ``master_keys`` that unwrapped it.

    A key that names its master key is opened with that one only: :class:`KeyNotLoadedError` when
    it is not among ``master_keys``. One wrapped before key ids is tried under each (GCM's tag tells
    a wrong key at once, so trying the retired keys after the current one costs nothing)."""
    wanted, _ = _sealed_part(wrapped)
    for index, master in enumerate(master_keys):
        if wanted is not None and key_id(master) != wanted:
            continue
        try:
            return unwrap_key(master, wrapped, document_id=document_id), index
        except DecryptionError:
            if wanted is not None:
                raise
            continue
    if wanted is not None:
        raise KeyNotLoadedError(wanted)
    raise DecryptionError("no master key unwraps this data key")


_master_lock = threading.Lock()


def parse_master_key(configured: str) -> bytes:
    key = base64.b64decode(configured)
    if len(key) != _KEY_BYTES:
        raise ValueError("a master key must be 32 bytes, base64-encoded")
    return key


def load_master_key(*, configured: str | None, dev_key_file: Path) -> bytes:
    """The master key from configuration, or a development key generated once into ``var/``."""
    if configured:
        return parse_master_key(configured)
    with _master_lock:
        if not dev_key_file.exists():
            dev_key_file.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(dev_key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as handle:
                handle.write(base64.b64encode(new_data_key()))
        return base64.b64decode(dev_key_file.read_bytes())
