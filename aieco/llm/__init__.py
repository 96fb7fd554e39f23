"""The LLM layer: one task interface, offline/openai/replay backends, call recording."""

from aieco.llm.base import BackendAnswer, LLMClient, OfflineBackend, Prompt, Task, build_payload

__all__ = ["BackendAnswer", "LLMClient", "OfflineBackend", "Prompt", "Task", "build_payload"]
