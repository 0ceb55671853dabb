"""The embedder behind hybrid search and the offline engine's dense signals."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from deepresearch.providers import vectors

pytestmark = pytest.mark.skipif(not vectors.available(), reason="wordllama not installed")


def test_a_blank_text_has_a_zero_vector_and_no_warning() -> None:
    embedder = vectors.load_embedder()
    assert embedder is not None
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the model alone divides by a zero norm
        out = embedder.embed(["printing press", "", "   ", "Gutenberg"])
    assert out.shape == (4, vectors.DIMENSIONS)
    assert not np.isnan(out).any()
    assert np.allclose(np.linalg.norm(out, axis=1), [1.0, 0.0, 0.0, 1.0], atol=1e-5)
    assert embedder.embed([]).shape == (0, vectors.DIMENSIONS)
