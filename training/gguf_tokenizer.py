"""The tokenizer of a SentencePiece-style ("llama" model) GGUF, built to tokenize as
llama.cpp does, for training on exactly the tokens the server will feed the model.

Why not transformers' own GGUF tokenizer: for Gemma 3 it builds a Unigram model from the
GGUF scores, but those scores are BPE merge priorities (higher merges first), so it
splits text differently from llama.cpp ("user" -> "us" + "er": 78 tokens where the
server has 52 for the same chat). Loading it also takes about a minute.

How llama.cpp tokenizes such a vocabulary (and what is built here):
  1. control and user-defined tokens (`<start_of_turn>`, `\\n\\n`, runs of spaces and
     tabs, ...) are cut out of the raw text first, as whole tokens
     -> tokenizers "added tokens", not normalised;
  2. in the rest, spaces become U+2581 (no space is prepended: add_space_prefix false)
     -> a Replace normaliser, no pre-tokeniser;
  3. starting from single characters, the adjacent pair whose concatenation is a token
     with the highest score is merged, until none is left
     -> BPE whose merge list is every (left, right) split of every token, ranked by the
        merged token's score, highest first;
  4. characters outside the vocabulary become their UTF-8 bytes `<0xXX>`
     -> byte_fallback.
The BOS token is added in front when the GGUF asks for it (add_bos_token), as the
server does. check_template.py --gguf compares the result with the server's /tokenize.
Needs gguf, tokenizers and transformers (training/requirements.txt).
"""

from __future__ import annotations

from pathlib import Path

NORMAL, UNKNOWN, CONTROL, USER_DEFINED, UNUSED, BYTE = 1, 2, 3, 4, 5, 6  # llama.cpp token types


class TokenizerError(ValueError):
    """The GGUF has no vocabulary this module can rebuild; the message says why."""


def read_vocab(path: str | Path) -> dict:
    """The tokenizer fields of a GGUF: tokens, scores, types and the special token ids."""
    import gguf

    reader = gguf.GGUFReader(str(path))

    def field(key, default=None):
        f = reader.get_field(key)
        return f.contents() if f is not None else default

    model = field("tokenizer.ggml.model")
    if model != "llama":
        raise TokenizerError(f"{path}: tokenizer model {model!r}; only SentencePiece-style ('llama') is rebuilt")
    if field("tokenizer.ggml.add_space_prefix", True):
        raise TokenizerError(f"{path}: add_space_prefix is set; only vocabularies without it are rebuilt")
    return {"tokens": field("tokenizer.ggml.tokens"), "scores": field("tokenizer.ggml.scores"),
            "types": field("tokenizer.ggml.token_type"),
            "bos": field("tokenizer.ggml.bos_token_id"), "eos": field("tokenizer.ggml.eos_token_id"),
            "unk": field("tokenizer.ggml.unknown_token_id"), "pad": field("tokenizer.ggml.padding_token_id"),
            "add_bos": bool(field("tokenizer.ggml.add_bos_token", False))}


def merges_by_score(tokens: list, scores: list, types: list) -> list:
    """Every (left, right) split of a token into two tokens, the highest-scoring merged
    token first (ties: the lower id), splits of one token left to right."""
    ids = {t: i for i, t in enumerate(tokens) if types[i] != BYTE}
    merges = []
    for i in sorted(range(len(tokens)), key=lambda i: (-scores[i], i)):
        t = tokens[i]
        if types[i] == BYTE or len(t) < 2:
            continue
        for k in range(1, len(t)):
            if t[:k] in ids and t[k:] in ids:
                merges.append((t[:k], t[k:]))
    return merges


def build(vocab: dict):
    """A PreTrainedTokenizerFast from read_vocab()'s fields."""
    from tokenizers import AddedToken, Tokenizer, decoders, models, normalizers, processors
    from transformers import PreTrainedTokenizerFast

    tokens, scores, types = vocab["tokens"], vocab["scores"], vocab["types"]
    bpe = models.BPE(vocab={t: i for i, t in enumerate(tokens)}, merges=merges_by_score(tokens, scores, types),
                     unk_token=tokens[vocab["unk"]], byte_fallback=True)
    tok = Tokenizer(bpe)
    tok.normalizer = normalizers.Replace(" ", "\u2581")
    tok.decoder = decoders.Sequence([decoders.Replace("\u2581", " "), decoders.ByteFallback(), decoders.Fuse()])
    tok.add_tokens([AddedToken(tokens[i], special=False, normalized=False)
                    for i in range(len(tokens)) if types[i] == USER_DEFINED])
    tok.add_special_tokens([AddedToken(tokens[i], special=True, normalized=False)
                            for i in range(len(tokens)) if types[i] == CONTROL])
    bos = tokens[vocab["bos"]]
    if vocab["add_bos"]:
        tok.post_processor = processors.TemplateProcessing(single=f"{bos} $A", pair=f"{bos} $A $B",
                                                           special_tokens=[(bos, vocab["bos"])])
    return PreTrainedTokenizerFast(tokenizer_object=tok, bos_token=bos, eos_token=tokens[vocab["eos"]],
                                   unk_token=tokens[vocab["unk"]],
                                   pad_token=tokens[vocab["pad"]] if vocab["pad"] is not None else None)


def load(path: str | Path):
    """The tokenizer of the GGUF at path (raises TokenizerError when it cannot be rebuilt)."""
    return build(read_vocab(path))
