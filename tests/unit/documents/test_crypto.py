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


def test_a_wrapped_key_names_its_master_key_so_a_process_without_it_knows_it_is_not_loaded():
    """GIVEN a data key wrapped under a newly rotated master key WHEN a process holding only the
    old key unwraps it THEN it hears "not loaded" (an outage to wait out), not "unreadable"; with
    both keys it unwraps; tampering under a key it holds stays a decryption error."""
    old, new, data_key = crypto.new_data_key(), crypto.new_data_key(), crypto.new_data_key()
    wrapped = crypto.wrap_key(new, data_key, document_id="d1")
    assert crypto.key_id(new) in wrapped and new not in wrapped
    with pytest.raises(crypto.KeyNotLoadedError) as raised:
        crypto.unwrap_key_any([old], wrapped, document_id="d1")
    assert raised.value.key_id == crypto.key_id(new)
    assert crypto.unwrap_key_any([old, new], wrapped, document_id="d1") == (data_key, 1)
    tampered = bytearray(wrapped)
    tampered[-1] ^= 0x01
    with pytest.raises(crypto.DecryptionError) as failed:
        crypto.unwrap_key_any([old, new], bytes(tampered), document_id="d1")
    assert not isinstance(failed.value, crypto.KeyNotLoadedError)


def test_a_key_wrapped_before_key_ids_is_unwrapped_by_whichever_configured_key_opens_it():
    master, other, data_key = crypto.new_data_key(), crypto.new_data_key(), crypto.new_data_key()
    legacy = crypto.encrypt(master, data_key, associated_data=b"data-key:d1")  # the format before ids
    assert crypto.unwrap_key_any([other, master], legacy, document_id="d1") == (data_key, 1)
    with pytest.raises(crypto.DecryptionError) as failed:
        crypto.unwrap_key_any([other], legacy, document_id="d1")
    assert not isinstance(failed.value, crypto.KeyNotLoadedError)
