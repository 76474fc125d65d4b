"""The Gemma chat template as llama-server renders it, for tokenizers that carry none.

The Gemma 3 GGUF served by scripts/endpoint-start.sh has no chat template, so the server
formats chats with llama.cpp's built-in `gemma` template (`--no-jinja --chat-template
gemma`). Training must see the same text the server will show the adapted model, so
GEMMA_TEMPLATE reproduces that built-in byte for byte:

  - every system message is trimmed and appended to a pending system text, which is put
    in front of the next non-model turn, followed by a blank line;
  - role `assistant` becomes `model`;
  - each turn is `<start_of_turn>ROLE\\n` + trimmed content + `<end_of_turn>\\n`;
  - the generation prompt is `<start_of_turn>model\\n`;
  - trimming removes the C locale's whitespace (space, \\t, \\n, \\v, \\f, \\r) at both
    ends, as llama.cpp's trim() does, and nothing else.

The server adds the BOS token when it tokenizes the prompt (the GGUF says add_bos_token),
and its /apply-template answer has no BOS; the template starts with `bos_token` so that
transformers' apply_chat_template (which adds no special tokens itself) yields the same
token sequence. check_template.py compares the two on real rows.
"""

from __future__ import annotations

from typing import Sequence

# The whitespace C's isspace() accepts in the C locale (what llama.cpp's trim() strips).
C_SPACE = " \t\n\x0b\x0c\r"

# One line: transformers renders with trim_blocks/lstrip_blocks, so literal newlines
# next to block tags would be eaten; every newline is an expression.
GEMMA_TEMPLATE = (
    "{{ bos_token }}{% set ns = namespace(system='') %}"
    "{% for m in messages %}"
    "{% if m['role'] == 'system' %}{% set ns.system = ns.system + (m['content'] | trim(' \\t\\n\\x0b\\x0c\\r')) %}"
    "{% else %}{% set role = 'model' if m['role'] == 'assistant' else m['role'] %}"
    "{{ '<start_of_turn>' + role + '\\n' }}"
    "{% if ns.system and role != 'model' %}{{ ns.system + '\\n\\n' }}{% set ns.system = '' %}{% endif %}"
    "{{ (m['content'] | trim(' \\t\\n\\x0b\\x0c\\r')) + '<end_of_turn>\\n' }}"
    "{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}{{ '<start_of_turn>model\\n' }}{% endif %}"
)


def reference_render(messages: Sequence[dict], add_generation_prompt: bool) -> str:
    """The same rendering in plain Python (without BOS), independent of Jinja: what the
    tests compare GEMMA_TEMPLATE against, written from llama.cpp's behaviour above."""
    out, system = [], ""
    for m in messages:
        content = m["content"].strip(C_SPACE)
        if m["role"] == "system":
            system += content
            continue
        role = "model" if m["role"] == "assistant" else m["role"]
        out.append(f"<start_of_turn>{role}\n")
        if system and role != "model":
            out.append(system + "\n\n")
            system = ""
        out.append(content + "<end_of_turn>\n")
    if add_generation_prompt:
        out.append("<start_of_turn>model\n")
    return "".join(out)


def render(messages: Sequence[dict], add_generation_prompt: bool, bos_token: str = "") -> str:
    """GEMMA_TEMPLATE rendered with Jinja set up as transformers sets it up (trim_blocks,
    lstrip_blocks, sandboxed): the text apply_chat_template tokenizes. Needs jinja2 only."""
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    msgs = [{"role": m["role"], "content": m["content"]} for m in messages]
    return env.from_string(GEMMA_TEMPLATE).render(messages=msgs, add_generation_prompt=add_generation_prompt,
                                                  bos_token=bos_token)
