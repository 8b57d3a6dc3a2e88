"""auditex.evaluation: the seed benchmarks' metrics behind `auditex bench`.

One module per benchmark, each implementing its paper's definitions:
flaws (Accuracy@k), agentic (perturbation recall), critical (HR@k / AP@k),
paperaudit (EC / FP / Macro-F1), surgical (revision sensitivity), and
localisation (our stricter source-range criterion). LLM judges go through
`judge.TextCompleter`; statistics live in `stats`.
"""
