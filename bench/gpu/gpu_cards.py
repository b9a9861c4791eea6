"""The GPU a benchmark ran on, and what its numbers say about another one.

A card is recognised from what CUDA reports (``torch.cuda.get_device_name`` and the compute
capability) against the published figures in ``cards.yaml``; a phase measured on it is scaled to
the target card (the B200) by the ratio of the figure that bounds it. Pure Python: no torch.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

_DATA = yaml.safe_load((Path(__file__).resolve().parent / "cards.yaml").read_text(encoding="utf-8"))
# Vision and prefill are compute-bound; decode steps read every weight and cache: bandwidth-bound.
PHASE_BOUND = {"vision": "compute", "prefill": "compute", "decode": "bandwidth"}


@dataclass(frozen=True)
class Card:
    """A GPU's published figures (``cards.yaml``)."""

    key: str
    label: str
    device_names: tuple[str, ...]
    compute_capability: tuple[int, int]
    bf16_dense_tflops: float
    hbm_tb_per_s: float
    source: str

    def figure(self, bound: str) -> float:
        return self.bf16_dense_tflops if bound == "compute" else self.hbm_tb_per_s


CARDS = {
    key: Card(
        key=key,
        label=raw["label"],
        device_names=tuple(raw["device_names"]),
        compute_capability=(raw["compute_capability"][0], raw["compute_capability"][1]),
        bf16_dense_tflops=raw["bf16_dense_tflops"],
        hbm_tb_per_s=raw["hbm_tb_per_s"],
        source=raw["source"],
    )
    for key, raw in _DATA["cards"].items()
}
TARGET = CARDS[_DATA["target"]]


def identify(device_name: str, capability: tuple[int, int] | None) -> Card | None:
    """The card ``torch.cuda.get_device_name`` and ``get_device_capability`` describe, or None: the
    exact name (a MIG slice or another variant has another) and its compute capability."""
    for card in CARDS.values():
        if device_name in card.device_names and capability == card.compute_capability:
            return card
    return None


def scale_phases(phases: dict[str, float], measured: Card, target: Card) -> dict[str, float]:
    """Each phase's time times measured / target figure: vision and prefill by bf16 dense
    TFLOPS, decode by HBM bandwidth. Decode gains that much only where it is bandwidth-bound; a
    launch-bound eager decode gains less, so this is an upper estimate."""
    scaled = {}
    for phase, seconds in phases.items():
        bound = PHASE_BOUND[phase.rsplit("_", 1)[1]]
        scaled[phase] = seconds * measured.figure(bound) / target.figure(bound)
    return scaled


def no_estimate(device_name: str, card: Card | None) -> str | None:
    """Why there is no B200 line for this card, or None when there is one."""
    if card is None:
        return (
            f"no {TARGET.label} estimate: '{device_name}' is not a card with published figures in "
            "bench/gpu/cards.yaml (exact name and compute capability)"
        )
    if card == TARGET:
        return (
            f"no {TARGET.label} estimate: this card is the {TARGET.label}, the rows above are measured on it"
        )
    return None
