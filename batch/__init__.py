"""`auditex batch`: a venue's submissions checked at scale, beside the CLI and the server.

venue (what to check) → task (one submission in a worker, under limits) → pool or
ray_pool (who runs the tasks) → results (records, findings.jsonl, summary.md);
llm_batch and llm_phase send the LLM audit through the providers' batch APIs.
"""
