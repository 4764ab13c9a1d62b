"""Endpoint presets: the known kinds of OpenAI-protocol endpoint the Settings dialog offers.

Vocabulary shared by the core (`openai.api` setting) and the desktop, so it sits in the contract.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

OpenAIApi = Literal["chat", "responses"]
OPENAI_APIS: tuple[OpenAIApi, ...] = ("chat", "responses")


@dataclass(frozen=True)
class Preset:
    """A known kind of endpoint: what the Settings dialog fills in."""

    key: str
    label: str
    base_url: str
    model: str
    needs_key: bool
    api: OpenAIApi = "chat"


PRESETS: tuple[Preset, ...] = (
    Preset("openai", "OpenAI", "https://api.openai.com/v1", "gpt-4o-mini", True),
    Preset("ollama", "Ollama (local)", "http://localhost:11434/v1", "llama3.1", False),
    Preset("lmstudio", "LM Studio (local)", "http://localhost:1234/v1", "local-model", False),
    Preset("vllm", "vLLM", "http://localhost:8000/v1", "served-model", False),
)
