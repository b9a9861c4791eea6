"""``manage.py extract``: both engines print the same §3.1 fields for the same files."""

import io
import json

import pytest
from django.core.management import call_command

from tests.conftest import REALDATA, SAMPLES

pytestmark = pytest.mark.integration
SPECIMENS = REALDATA / "id_specimens"


def _extract(*args: str) -> list[dict]:
    out = io.StringIO()
    call_command("extract", *args, stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines() if line.strip()]


def _inputs() -> list[str]:
    files = [str(p) for p in sorted(SAMPLES.glob("*")) if p.suffix.lower() in {".png", ".jpg", ".jpeg"}][:2]
    if SPECIMENS.exists():
        files += [str(SPECIMENS / "mrzdocs_other_TD2_ICAO_Example.png"), str(SPECIMENS / "fastmrz_td1.jpg")]
    return files


def test_local_and_triton_engines_give_the_same_fields(triton_server, settings):
    settings.DOCINTEL_TRITON_URL = triton_server
    files = _inputs()
    assert files, "no sample documents found"
    local = _extract(*files, "--engine", "local")
    remote = _extract(*files, "--engine", "triton")
    assert [r["file"] for r in local] == [r["file"] for r in remote]
    for a, b in zip(local, remote, strict=True):
        assert a["error"] is None, a["error"]
        assert {k: v["value"] for k, v in a["fields"].items()} == {
            k: v["value"] for k, v in b["fields"].items()
        }
        assert a["document_type"] == b["document_type"] in {"passport", "id_card"}


def test_table_format_prints_one_block_per_file(tmp_path):
    if not SPECIMENS.exists():
        pytest.skip("../shared/realdata is not beside the checkout")
    out = io.StringIO()
    call_command("extract", str(SPECIMENS / "fastmrz_td3.jpg"), "--format", "table", stdout=out)
    text = out.getvalue()
    assert "fastmrz_td3.jpg" in text and "surname" in text and "ERIKSSON" in text


def test_unsupported_file_is_a_failed_result_not_a_crash(tmp_path):
    junk = tmp_path / "notes.txt"
    junk.write_text("hello")
    (result,) = _extract(str(junk))
    assert result["status"] == "failed" and result["error"]["code"] == "unsupported_file_type"
