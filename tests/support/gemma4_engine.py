"""Helpers for the tests that talk to a served Gemma 4 (tests/gemma4): a chat whose tokens show the
template at work, vLLM's tokenization of it and what it must look like, and a small page image to
send."""

from __future__ import annotations

import base64
import io
from typing import Any

import httpx

CHAT = [
    {"role": "system", "content": "Answer in JSON."},
    {"role": "user", "content": "Total 12345.67 EUR on 2024-12-31, 漢字"},
]


def tokenize_chat(url: str, model: str, messages: list[dict[str, Any]]) -> list[str]:
    """The prompt's tokens as vLLM's chat path tokenizes it (``/tokenize``)."""
    response = httpx.post(
        url.removesuffix("/v1") + "/tokenize",
        json={"model": model, "messages": messages, "add_generation_prompt": True, "return_token_strs": True},
        timeout=60,
    )
    assert response.status_code == 200, response.text[:500]
    return response.json()["token_strs"]


def assert_gemma_chat_prompt(tokens: list[str]) -> None:
    """One <bos>, a system turn and a user turn, then the model's turn; numbers in multi-digit
    tokens, characters outside the vocabulary as bytes."""
    assert tokens[0] == "<bos>" and tokens.count("<bos>") == 1, tokens[:4]
    assert "".join(tokens[1 : tokens.index("<turn|>")]).startswith("<|turn>system")
    assert tokens.count("<|turn>") == 3 and tokens.count("<turn|>") == 2
    assert any(sum(c.isdigit() for c in token) >= 2 for token in tokens), "no multi-digit token"
    assert any(token.startswith("<0x") for token in tokens), "no byte-fallback token"


def invoice_page_url(width: int = 800, height: int = 600) -> str:
    """A white PNG page with one line of invoice text, as a ``data:`` URL the chat API takes."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", (width, height), "white")
    ImageDraw.Draw(image).text((40, 40), "INVOICE 2024-03-05 TOTAL 12.50", fill="black")
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()
