"""python -m synth.generate: a folder of images plus truth.json, reproducible from its seed."""

from __future__ import annotations

import json

from synth.generate import main
from tests.unit.synth.mrz_reference import read


def test_cli_writes_images_and_a_truth_file_with_round_robin_kinds(tmp_path):
    """GIVEN kinds passport,id_card,td2 WHEN 4 documents are generated THEN files are named by
    index and kind, cycle through the kinds, and truth.json describes each of them."""
    assert (
        main(
            [
                str(tmp_path),
                "--count",
                "4",
                "--seed",
                "9",
                "--kinds",
                "passport,id_card,td2",
                "--profile",
                "scan",
            ]
        )
        == 0
    )
    truth = json.loads((tmp_path / "truth.json").read_text())
    names = sorted(truth)
    assert [n.split(".")[0] for n in names] == [
        "00000-passport",
        "00001-id_card",
        "00002-td2",
        "00003-passport",
    ]
    for name in names:
        assert (tmp_path / name).stat().st_size > 0
        entry = truth[name]
        assert set(entry) >= {"document_type", "fields", "mrz"}
        assert entry["fields"] == read(entry["mrz"])[0]
    assert truth[names[1]]["document_type"] == "id_card"
    assert truth[names[0]]["document_type"] == "passport"


def test_cli_output_is_identical_for_the_same_seed(tmp_path):
    args = ["--count", "2", "--seed", "5", "--kinds", "id_card", "--profile", "photo"]
    main([str(tmp_path / "a"), *args])
    main([str(tmp_path / "b"), *args])
    files_a = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert files_a == sorted(p.name for p in (tmp_path / "b").iterdir())
    for name in files_a:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
