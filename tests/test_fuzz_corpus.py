"""The minimised fuzz corpus as regression cases: every saved input still passes.

``tests/fuzz_corpus/decoder`` and ``tests/fuzz_corpus/pipeline`` hold inputs that
``fuzz/fuzz_decoder.py`` and ``fuzz/fuzz_pipeline.py`` found interesting (libFuzzer
``-merge=1`` output), plus every crash they ever found, named ``crash-*``. Each file
is checked with the harness's own function, so CI runs the fuzz invariants without
atheris. ``fuzz/README.md`` says how to refresh the corpus.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from invariants import check_decoder_input, check_pipeline_input

CORPUS = Path(__file__).resolve().parent / "fuzz_corpus"


def _files(kind: str) -> list[Path]:
    return sorted((CORPUS / kind).iterdir())


class TestDecoderCorpus:
    """Inputs of the decoder harness."""

    def test_corpus_present(self) -> None:
        """The corpus is in the checkout, so the regression test cannot pass vacuously."""
        assert len(_files("decoder")) > 10

    @pytest.mark.parametrize("path", _files("decoder"), ids=lambda p: p.name[:16])
    def test_input(self, path: Path) -> None:
        """Decoding whole and in chunks agrees, nothing raises, events round-trip."""
        check_decoder_input(path.read_bytes())


class TestPipelineCorpus:
    """Inputs of the whole-pipeline harness."""

    def test_corpus_present(self) -> None:
        """The corpus is in the checkout, crash reproducers included."""
        files = _files("pipeline")
        assert len(files) > 10
        assert any(path.name.startswith("crash-") for path in files)

    @pytest.mark.parametrize("path", _files("pipeline"), ids=lambda p: p.name[:16])
    def test_input(self, path: Path) -> None:
        """No exception, every limit and vocabulary rule holds, chunking changes nothing."""
        check_pipeline_input(path.read_bytes())
