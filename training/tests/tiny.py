"""A tiny random Gemma 3 model and a byte-level tokenizer, both built in code (nothing is
downloaded), saved as a Hugging Face folder that train_lora.py --model loads. The
tokenizer has Gemma's special tokens and no chat template, like the GGUF's."""

from pathlib import Path

SPECIAL = ["<pad>", "<eos>", "<bos>", "<unk>", "<start_of_turn>", "<end_of_turn>"]


def tiny_tokenizer():
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    alphabet = sorted(pre_tokenizers.ByteLevel.alphabet())
    vocab = {t: i for i, t in enumerate(SPECIAL)}
    vocab.update({c: len(SPECIAL) + i for i, c in enumerate(alphabet)})
    tok = Tokenizer(models.BPE(vocab=vocab, merges=[], unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False)
    tok.decoder = decoders.ByteLevel()
    tok.add_special_tokens(SPECIAL)
    return PreTrainedTokenizerFast(tokenizer_object=tok, bos_token="<bos>", eos_token="<eos>", pad_token="<pad>",
                                   unk_token="<unk>", additional_special_tokens=SPECIAL[4:])


def tiny_gemma3(vocab_size: int, seed: int = 0):
    import torch
    from transformers import Gemma3ForCausalLM, Gemma3TextConfig

    torch.manual_seed(seed)
    config = Gemma3TextConfig(vocab_size=vocab_size, hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                              num_attention_heads=2, num_key_value_heads=1, head_dim=32, max_position_embeddings=2048,
                              sliding_window=64, layer_types=["sliding_attention", "full_attention"],
                              pad_token_id=0, eos_token_id=1, bos_token_id=2)
    return Gemma3ForCausalLM(config)


def save_tiny_model(folder: Path, seed: int = 0) -> Path:
    tok = tiny_tokenizer()
    model = tiny_gemma3(len(tok), seed)
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return folder
