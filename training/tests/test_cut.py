"""fit_tokens with cut_completion (train_lora.py --cut-completions): a row whose completion
alone exceeds max_length is kept cut rather than dropped. Pure Python."""

from fixit_data import Drop, fit_tokens

BOS = 1


def row(prompt_len, completion_len):
    prompt = [BOS] + list(range(100, 100 + prompt_len - 1))
    return prompt, prompt + list(range(5000, 5000 + completion_len))


def test_without_cut_a_long_completion_is_dropped():
    prompt, full = row(40, 30)
    assert fit_tokens(prompt, full, 20, BOS) == Drop.COMPLETION_TOO_LONG


def test_cut_keeps_bos_the_prompt_end_and_the_completion_start():
    prompt, full = row(40, 30)
    ids, mask = fit_tokens(prompt, full, 21, BOS, cut_completion=True)
    assert len(ids) == 21 and len(mask) == 21
    # BOS, then a quarter of the 20 other tokens (5) from the prompt's end, then the
    # completion's first 15 tokens, which alone carry the loss.
    assert ids[0] == BOS
    assert ids[1:6] == prompt[-5:]
    assert ids[6:] == full[len(prompt):len(prompt) + 15]
    assert mask == [0] * 6 + [1] * 15


def test_cut_leaves_rows_that_fit_as_they_were():
    prompt, full = row(40, 10)
    assert fit_tokens(prompt, full, 30, BOS, cut_completion=True) == fit_tokens(prompt, full, 30, BOS)
    assert fit_tokens(prompt, full, 0, BOS, cut_completion=True) == (full, [0] * 40 + [1] * 10)


def test_cut_with_a_short_prompt_gives_the_rest_to_the_completion():
    prompt, full = row(2, 50)
    ids, mask = fit_tokens(prompt, full, 16, BOS, cut_completion=True)
    assert ids == prompt + full[2:16]
    assert mask == [0, 0] + [1] * 14
