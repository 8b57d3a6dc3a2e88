"""The audit modes, in one place: PaperAudit's three depths and Zhang & Abernethy's critical top-k.

A light module, so that the editor and the command line can name and check a mode without
loading the LLM stack.
"""

from typing import Literal

Mode = Literal["fast", "standard", "deep", "critical"]
MODES: tuple[Mode, ...] = ("fast", "standard", "deep", "critical")
