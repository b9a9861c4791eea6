import pytest

from apps.documents import crypto


def test_encrypt_then_decrypt_returns_the_plaintext():
    key = crypto.new_data_key()
    blob = crypto.encrypt(key, b"passport bytes", associated_data=b"doc-1:original")
    assert b"passport bytes" not in blob
    assert crypto.decrypt(key, blob, associated_data=b"doc-1:original") == b"passport bytes"


def test_decrypt_with_another_documents_associated_data_fails():
    key = crypto.new_data_key()
    blob = crypto.encrypt(key, b"x" * 100, associated_data=b"doc-1:original")
    with pytest.raises(crypto.DecryptionError):
        crypto.decrypt(key, blob, associated_data=b"doc-2:original")


def test_a_flipped_ciphertext_bit_is_detected():
    key = crypto.new_data_key()
    blob = bytearray(crypto.encrypt(key, b"x" * 100, associated_data=b"a"))
    blob[-5] ^= 0x01
    with pytest.raises(crypto.DecryptionError):
        crypto.decrypt(key, bytes(blob), associated_data=b"a")


def test_wrapped_data_key_unwraps_only_under_the_same_master_key_and_document():
    master, other_master = crypto.new_data_key(), crypto.new_data_key()
    data_key = crypto.new_data_key()
    wrapped = crypto.wrap_key(master, data_key, document_id="d1")
    assert crypto.unwrap_key(master, wrapped, document_id="d1") == data_key
    with pytest.raises(crypto.DecryptionError):
        crypto.unwrap_key(other_master, wrapped, document_id="d1")
    with pytest.raises(crypto.DecryptionError):
        crypto.unwrap_key(master, wrapped, document_id="d2")


def test_development_master_key_is_generated_once_and_reused(tmp_path):
    key_file = tmp_path / "master.key"
    first = crypto.load_master_key(configured=None, dev_key_file=key_file)
    assert len(first) == 32
    assert crypto.load_master_key(configured=None, dev_key_file=key_file) == first
    assert key_file.stat().st_mode & 0o777 == 0o600
