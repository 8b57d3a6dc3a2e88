"""auditex.evaluation: the seed benchmarks' metrics behind `auditex bench`.

One module per benchmark, each implementing its paper's definitions:
flaws (Accuracy@k), agentic (perturbation recall), critical (HR@k / AP@k, live
or replayed from recorded verdicts; `withdrarxiv` reads the authors' release),
paperaudit (EC / FP / Macro-F1), surgical (revision sensitivity), ranking (how
reviews order papers: pairwise accuracy, Rank-MSE, Spearman, Kendall tau-b) and
localisation (our stricter source-range criterion). LLM judges go through
`judge.TextCompleter`, their answers through `judge`'s readers; statistics live in
`stats`.
"""
