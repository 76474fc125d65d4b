"""gguf_tokenizer.py on a small vocabulary written as a GGUF here: merges follow the
scores (not a Unigram's best split), user-defined whitespace tokens are cut out first,
control tokens parse, unknown characters fall back to bytes, BOS comes first. (The real
Gemma 3 vocabulary against llama-server's ids: test_real_model.py.)"""

import pytest

gguf = pytest.importorskip("gguf", reason="gguf is not installed (PTXBENCH_TRAINING_DEPS=1 training/setup.sh)")
pytest.importorskip("tokenizers", reason="tokenizers is not installed")
pytest.importorskip("transformers", reason="transformers is not installed")

import gguf_tokenizer  # noqa: E402
from gguf_tokenizer import BYTE, CONTROL, NORMAL, USER_DEFINED  # noqa: E402

SPECIAL = [("<pad>", CONTROL), ("<eos>", CONTROL), ("<bos>", CONTROL), ("<unk>", CONTROL),
           ("<start_of_turn>", CONTROL), ("\n", USER_DEFINED), ("\n\n", USER_DEFINED), ("  ", USER_DEFINED)]
BYTES = [(f"<0x{b:02X}>", BYTE) for b in range(256)]
# (token, score): llama.cpp merges the pair whose result scores highest first
NORMALS = [("u", -1), ("s", -1), ("e", -1), ("r", -1), ("x", -1), ("\u2581", -1), ("er", -3), ("us", -111),
           ("use", -50), ("user", -1870), ("\u2581x", -20)]


def write_vocab(path, model="llama", add_space_prefix=False):
    tokens = [t for t, _ in SPECIAL] + [t for t, _ in BYTES] + [t for t, _ in NORMALS]
    types = [k for _, k in SPECIAL] + [k for _, k in BYTES] + [NORMAL] * len(NORMALS)
    scores = [-1000.0] * (len(SPECIAL) + len(BYTES)) + [float(s) for _, s in NORMALS]
    w = gguf.GGUFWriter(str(path), "gemma3")
    w.add_tokenizer_model(model)
    w.add_token_list(tokens)
    w.add_token_scores(scores)
    w.add_token_types(types)
    w.add_bos_token_id(2)
    w.add_eos_token_id(1)
    w.add_unk_token_id(3)
    w.add_pad_token_id(0)
    w.add_add_bos_token(True)
    w.add_add_space_prefix(add_space_prefix)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    return path, {t: i for i, t in enumerate(tokens)}


def test_tokenizes_as_llama_cpp(tmp_path):
    path, ids = write_vocab(tmp_path / "v.gguf")
    tok = gguf_tokenizer.load(path)
    enc = lambda text: tok(text, add_special_tokens=False)["input_ids"]  # noqa: E731
    # u s e r -> u s er (-3) -> us er (-111) -> user (-1870): "use" (-50) never forms,
    # as its pieces "us" + "e" no longer exist when it would score best
    assert enc("user") == [ids["user"]]
    assert enc("use") == [ids["use"]]  # u s e -> us e -> use
    assert enc(" x") == [ids["\u2581x"]]  # spaces are U+2581; no space is prepended
    assert enc("x") == [ids["x"]]
    assert enc("  x\n\nx") == [ids["  "], ids["x"], ids["\n\n"], ids["x"]]  # user-defined tokens cut first
    assert enc("<start_of_turn>user\n") == [ids["<start_of_turn>"], ids["user"], ids["\n"]]
    assert enc("\u00e9") == [ids["<0xC3>"], ids["<0xA9>"]]  # not in the vocabulary: its UTF-8 bytes
    assert tok("x")["input_ids"] == [ids["<bos>"], ids["x"]]  # add_bos_token
    assert tok.decode(enc(" user  x\u00e9")) == " user  x\u00e9"
    assert (tok.bos_token, tok.eos_token, tok.pad_token, tok.unk_token) == ("<bos>", "<eos>", "<pad>", "<unk>")


def test_merges_follow_the_scores():
    tokens = ["a", "b", "c", "ab", "bc", "abc"]
    scores = [0.0, 0.0, 0.0, -5.0, -1.0, -9.0]
    merges = gguf_tokenizer.merges_by_score(tokens, scores, [NORMAL] * 6)
    assert merges == [("b", "c"), ("a", "b"), ("a", "bc"), ("ab", "c")]


@pytest.mark.parametrize("kw, message", [({"model": "gpt2"}, "only SentencePiece-style"),
                                         ({"add_space_prefix": True}, "add_space_prefix")])
def test_other_vocabularies_are_refused(tmp_path, kw, message):
    path, _ = write_vocab(tmp_path / "v.gguf", **kw)
    with pytest.raises(gguf_tokenizer.TokenizerError, match=message):
        gguf_tokenizer.load(path)
