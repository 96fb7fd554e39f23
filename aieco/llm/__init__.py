"""The LLM layer: one task interface, offline/openai/replay backends, call recording."""

from aieco.llm.backends import BACKENDS, make_backend
from aieco.llm.base import Backend, BackendAnswer, LLMClient, OfflineBackend, Prompt, Task, build_payload

__all__ = [
    "BACKENDS",
    "Backend",
    "BackendAnswer",
    "LLMClient",
    "OfflineBackend",
    "Prompt",
    "Task",
    "build_payload",
    "make_backend",
]
