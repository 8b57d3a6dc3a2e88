from llm_server import llm_server  # noqa: F401  (reusable loopback LLM fixture)
