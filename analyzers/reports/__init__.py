"""Report formats of findings, below every front end: the CLI, batch and the server write them.

paths.py       how a report names a project file
text.py        the compiler-style text report, its summary line and count per code
markdown.py    the Markdown report (`--format markdown`, the editor's "Show report")
json_contract.py  the JSON contract (`--format json`, batch's records)
sarif.py       SARIF 2.1.0, with each code's metadata from the code table (analyzers/codes.py)
"""
