"""A byte-level tokenizer built in code (no download): ids 0-255 are the UTF-8 bytes,
then pad, bos and eos. Used by the tiny-model test and by --tiny runs."""

from __future__ import annotations


class ByteTokenizer:
    PAD, BOS, EOS = 256, 257, 258
    vocab_size = 259

    pad_token_id = PAD
    bos_token_id = BOS
    eos_token_id = EOS

    def encode(self, text: str) -> list:
        return list(text.encode("utf-8"))

    def decode(self, ids) -> str:
        return bytes(i for i in ids if 0 <= i < 256).decode("utf-8", errors="replace")
