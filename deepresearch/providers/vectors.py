"""Dense vectors for hybrid corpus search, from ``wordllama`` (the optional ``vectors``
extra): a 256-dimension static embedding model shipped inside its wheel, CPU only, no
download. Without the package the corpus searches lexically (BM25) alone.

wordllama 0.4 looks for its tokenizer file under ``<cache_dir>/tokenizers/`` and would
download it otherwise; the wheel ships the file in its own ``tokenizers`` folder, so the
package folder is passed as the cache folder and downloads are disabled.
"""

from __future__ import annotations

import importlib.util
import logging
import threading
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

MODEL_NAME = "wordllama-l2_supercat-256"
DIMENSIONS = 256
EMBED_CHARS = 2_000  # a static model averages tokens: the head of a passage says enough

Matrix = NDArray[np.float32]
_lock = threading.Lock()
_model: Any = None


def available() -> bool:
    """Whether the ``wordllama`` embedding model is installed (the ``vectors`` extra)."""
    return importlib.util.find_spec("wordllama") is not None


class Embedder:
    """Unit-length float32 vectors of texts (so a dot product is the cosine); a blank text's
    vector is zero."""

    name = MODEL_NAME

    def __init__(self, model: Any) -> None:
        self._model = model

    def embed(self, texts: list[str]) -> Matrix:
        """Unit-length vectors of ``texts`` (each clipped first), one row each.

        Args:
            texts: the texts to embed.
        """
        out = np.zeros((len(texts), DIMENSIONS), dtype=np.float32)
        # A blank text has no tokens: the model would divide by a zero norm (NaNs and a
        # RuntimeWarning); its zero vector is similar to nothing, which is what it says.
        said = [i for i, t in enumerate(texts) if t.strip()]
        if said:
            clipped = [texts[i][:EMBED_CHARS] for i in said]
            out[said] = np.asarray(self._model.embed(clipped, norm=True), dtype=np.float32)
        return out


def load_embedder() -> Embedder | None:
    """The shared embedder, loaded once; None when wordllama is not installed."""
    global _model
    if not available():
        return None
    with _lock:
        if _model is None:
            wordllama = _import_quietly()
            package = Path(wordllama.__file__).parent
            _model = wordllama.WordLlama.load(cache_dir=package, disable_download=True)
    return Embedder(_model)


def _import_quietly() -> Any:
    """Import wordllama without its side effect: it calls ``logging.basicConfig(INFO)`` on
    import, which would turn on every library's INFO logging in the user's process."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    import wordllama

    root.handlers[:] = handlers
    root.setLevel(level)
    return wordllama


def to_blob(vector: Matrix) -> bytes:
    """``vector`` as float16 bytes for the index.

    Args:
        vector: one embedding.
    """
    return np.asarray(vector, dtype=np.float16).tobytes()


def from_blobs(blobs: list[bytes]) -> Matrix:
    """The float32 matrix of stored float16 ``blobs``, one row each.

    Args:
        blobs: vectors as :func:`to_blob` stored them.
    """
    if not blobs:
        return np.zeros((0, DIMENSIONS), dtype=np.float32)
    joined = np.frombuffer(b"".join(blobs), dtype=np.float16)
    return joined.reshape(len(blobs), -1).astype(np.float32)
