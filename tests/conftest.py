from pathlib import Path

import pytest
from llm_server import llm_server  # noqa: F401  (reusable loopback LLM fixture)
from open_recorder import open_recorder  # noqa: F401  (records files opened during a block)

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
CORPUS_PAPERS = sorted(p.name for p in CORPUS.iterdir() if p.is_dir()) if CORPUS.is_dir() else []


@pytest.fixture
def corpus_dir() -> Path:
    """The shared corpus of real papers (read-only); skips where it is absent."""
    if not CORPUS.is_dir():
        pytest.skip("../shared/corpus is absent (a user's clone): real-paper tests skipped")
    return CORPUS


@pytest.fixture(autouse=True, scope="session")
def private_cache_dir(tmp_path_factory) -> Path:
    """Every test (and every auditex process a test starts) caches in a temporary folder, never the user's."""
    import os

    folder = tmp_path_factory.mktemp("auditex-cache")
    previous = os.environ.get("AUDITEX_CACHE_DIR")
    os.environ["AUDITEX_CACHE_DIR"] = str(folder)
    yield folder
    if previous is None:
        os.environ.pop("AUDITEX_CACHE_DIR", None)
    else:
        os.environ["AUDITEX_CACHE_DIR"] = previous


@pytest.fixture(autouse=True, scope="session")
def checked_facets():
    """Rules run with their facets checked: a read beyond what a rule declares raises (analyzers/facets.py)."""
    from auditex.analyzers.facets import CHECK_ENV

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CHECK_ENV, "1")
        yield


@pytest.fixture
def every_class_measured_precise():
    """The science rules' warnings as their own evidence sets them, as if every evidence class of findings their rule
    is sure of had been measured precise on the corpus: for tests of a rule's logic, apart from the measured gate
    (analyzers/precision.py)."""
    from auditex.analyzers import precision

    def sure(code: str, evidence: str) -> bool:
        return not precision.is_unsure(evidence)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(precision, "reaches_warning", sure)
        patch.setattr("auditex.analyzers.finding.reaches_warning", sure)
        patch.setattr("auditex.analyzers.finding.measured_imprecise", lambda code, evidence: False)
        yield
