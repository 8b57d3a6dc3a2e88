"""Shared by the review tests: a tiny project and a loopback scholarly server with the real JSON shapes."""

from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from loopback import LoopbackServer

MAIN_TEX = r"""\documentclass{article}
\title{Sparse Widgets for Fast Inference}
\begin{document}
\maketitle
\begin{abstract}
We propose sparse widgets. They are 2x faster.
\end{abstract}
\section{Introduction}
Widgets matter. See Section~\ref{sec:method} and Table~\ref{tab:missing}.
\input{method}
\section{Results}
Our method reaches 91.2\% accuracy \cite{smith20}.
\begin{table}
\centering
\begin{tabular}{lc}
Method & Acc \\
Ours & 91.2 \\
\end{tabular}
\caption{Main results.}\label{tab:main}
\end{table}
\bibliographystyle{plain}
\bibliography{refs}
\end{document}
"""
METHOD_TEX = "\\section{Method}\\label{sec:method}\nWe train for 10 epochs with a learning rate of 0.01.\n"
REFS_BIB = "@article{smith20, title={Dense Widgets}, author={Smith, A.}, journal={J. Widgets}, year={2020}}\n"


def write_project(folder: Path, main: str = MAIN_TEX) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "main.tex").write_text(main, encoding="utf-8")
    (folder / "method.tex").write_text(METHOD_TEX, encoding="utf-8")
    (folder / "refs.bib").write_text(REFS_BIB, encoding="utf-8")
    return folder


# Trimmed from real answers of GET /graph/v1/paper/search and GET /works?search=.
SEMANTIC_SCHOLAR_ANSWER = {
    "total": 2,
    "offset": 0,
    "next": 2,
    "data": [
        {
            "paperId": "649def34f8be52c8b66281af98ae884c09aef38b",
            "externalIds": {"DOI": "10.1000/widgets.2020", "CorpusId": 1},
            "url": "https://www.semanticscholar.org/paper/649def34f8be52c8b66281af98ae884c09aef38b",
            "title": "Dense Widgets",
            "venue": "Journal of Widgets",
            "year": 2020,
            "authors": [{"authorId": "1", "name": "A. Smith"}],
            "abstract": "Dense widgets are accurate but slow.",
        },
        {
            "paperId": "0f0f",
            "externalIds": {},
            "url": "https://www.semanticscholar.org/paper/0f0f",
            "title": "Pruned Gadgets for Efficient Inference",
            "venue": "",
            "year": None,
            "authors": [],
            "abstract": None,
        },
    ],
}
OPENALEX_ANSWER = {
    "meta": {"count": 1, "db_response_time_ms": 20, "page": 1, "per_page": 8, "groups_count": None},
    "results": [
        {
            "id": "https://openalex.org/W2741809807",
            "doi": "https://doi.org/10.1000/gadgets.2019",
            "title": "Pruned Gadgets",
            "display_name": "Pruned Gadgets",
            "publication_year": 2019,
            "authorships": [{"author_position": "first", "author": {"id": "https://openalex.org/A1", "display_name": "B. Jones"}}],
            "primary_location": {"is_oa": False, "source": {"id": "https://openalex.org/S1", "display_name": "Gadget Letters"}},
            "abstract_inverted_index": {"Gadgets": [0], "can": [1], "be": [2], "pruned.": [3]},
        }
    ],
    "group_by": [],
}


class ScholarlyServer(LoopbackServer):
    """Answers /graph/v1/paper/search and /works like the real services; records the queries."""

    def __init__(self, status: int = 200) -> None:
        self.status = status
        self.queries: list[tuple[str, dict[str, list[str]]]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                owner.queries.append((parts.path, parse_qs(parts.query)))
                body = SEMANTIC_SCHOLAR_ANSWER if parts.path.endswith("/paper/search") else OPENALEX_ANSWER
                data = json.dumps(body if owner.status == 200 else {"message": "Too Many Requests"}).encode()
                self.send_response(owner.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self._listen(Handler)
