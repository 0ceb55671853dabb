"""The offline engine: every LLM role computed deterministically from structured inputs."""

from deepresearch.offline.engine import OfflineEngine

__all__ = ["OfflineEngine"]
