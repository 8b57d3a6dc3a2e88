from open_recorder import open_recorder  # noqa: F401  (records files opened during a block)
from llm_server import llm_server  # noqa: F401  (reusable loopback LLM fixture)
