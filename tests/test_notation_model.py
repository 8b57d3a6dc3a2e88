"""The NOT family's model: how an acronym written with another's letters is recognised."""

from pathlib import Path

import pytest
from helpers import document, rule_findings

from auditex.analyzers.rules.notation.bindings import formulas, renamed_bound_symbols
from auditex.analyzers.rules.notation.dimensions import dimension
from auditex.analyzers.rules.notation.model import coded_by_letters, explained_twins, introduced_at, transposed


@pytest.mark.parametrize(
    ("written", "defined", "expected"),
    [
        ("GDN", ["DGN", "MLP"], "DGN"),
        ("MCS", ["CSM"], "CSM"),
        ("DGN", ["DGN"], None),  # the defined spelling itself
        ("LN", ["NL"], None),  # two letters: too often two names
        ("ABC", ["BCA", "CAB"], None),  # two candidates: which one is meant is unknown
        ("GDN", ["GND", "DGM"], "GND"),  # one letter changed is another acronym, not a transposition
        ("GDNN", ["DGN"], None),
    ],
)
def test_transposed_finds_the_one_defined_acronym_with_the_same_letters(written: str, defined: list[str], expected: str | None) -> None:
    assert transposed(written, defined) == expected


def test_a_short_form_written_in_parentheses_counts_as_defined_even_unspelled(tmp_path: Path) -> None:
    body = (
        "\\section{Method}\n"
        "We call the composite a geometric deep feed-forward network (DGN). Every DGN is continuous.\n\n"
        "GDNs approximate any map. A GDN is a DGN.\n"
    )
    findings = rule_findings(tmp_path, document(body), "NOT006")
    assert [finding.message for finding in findings] == [
        "GDN is written (2 times) but never defined; the paper defines DGN, with the same letters"
    ]


def test_a_transposition_defined_in_its_own_right_is_another_term(tmp_path: Path) -> None:
    body = "\\section{Method}\nA graph neural network (GNN) and a neural graph network (NGN) differ. The GNN and the NGN are trained.\n"
    assert rule_findings(tmp_path, document(body), "NOT006") == []


@pytest.mark.parametrize(
    ("unit", "expected"),
    [
        ("s\\textsuperscript{-1}", (("T", -1),)),  # the units package
        ("m\\textsuperscript{3}s\\textsuperscript{-1}", (("L", 3), ("T", -1))),
        ("\\kilo\\hertz", (("T", -1),)),  # siunitx: a prefix is a scale, Hz a rate
        ("\\metre\\per\\second\\squared", (("L", 1), ("T", -2))),
        ("\\mu \\eV", (("L", 2), ("M", 1), ("T", -2))),
        ("\\mathrm{s^{-1}}", (("T", -1),)),
        ("m/s", (("L", 1), ("T", -1))),
        ("nK", (("K", 1),)),
        ("atoms/s", None),  # a count is no unit this reads
        ("\\textwidth", None),
    ],
)
def test_a_unit_is_read_into_its_dimension(unit: str, expected: tuple[tuple[str, int], ...] | None) -> None:
    assert dimension(unit) == expected


@pytest.mark.parametrize(
    ("display", "key", "twins"),
    [
        (
            "IPA(t) = 1-BS_model(t)BS_null(t),",
            "where BS_model(t) is the model's and (S_null(t) the null model's score.",
            [("S_null", "BS_null")],
        ),
        ("IPA(t) = 1-BS_model(t)BS_null(t),", "where BS_model(t) and BS_null(t) are the scores.", []),
        # The display's symbol is explained too: the other one is a further quantity, not a typo.
        ("L = L_rec + λ L_reg,", "where L_rec and L_reg are the terms and KL_reg is left for later.", []),
        # One letter changed, not lost or added; and an index subscript is not a name.
        ("y = a_ijmn x,", "where U_ijmn is the coupling.", []),
        ("IPA(t) = 1-BS_model(t)BS_null(t),", "The scores BS_model and S_null are reported.", []),  # not a key
        # An indexed letter the key names as its subject, under another letter of the display's alphabet.
        (
            "q(·) = ∑_k α_j t_δ(·; μ_j, Σ_j),",
            "where ω_j are mixture weights, μ_j is a location parameter and Σ_j is the scale.",
            [("ω_j", "α_j")],
        ),
        ("q(·) = ∑_k α_j t_δ(·; μ_j, Σ_j),", "where α_j are mixture weights and μ_j, Σ_j the location and scale.", []),
        ("g_S = 4π a_S/M,", "where a_S is the scattering length.", []),  # written in the display
        ("y = ∑_j α_j x_j + β_j,", "where ω_j are the weights.", []),  # two Greek letters indexed j: which one is unknown
        ("y = ∑_j α_j x_j,", "where ω_j = 2 α_j are the weights.", []),  # the key writes α_j: ω_j is a further symbol
        ("y = ∑_j α_j x_j,", "where x_j is the input and ω_j are the weights.", [("ω_j", "α_j")]),
        ("y = ∑_j α_j x_j,", "where a_j are the weights.", []),  # a Latin letter is as often a further symbol
        # The key writes the derivative the display writes as a fraction: a differential, no letter added.
        ("d N_ions/d t = K ∫ n^2,", "where dN_ions/dt is the rate of ion production.", []),
    ],
)
def test_a_key_explaining_a_symbol_one_letter_off_the_displays_names_its_twin(display: str, key: str, twins: list[tuple[str, str]]) -> None:
    assert [(twin.explained, twin.displayed) for twin in explained_twins(display, key)] == twins


@pytest.mark.parametrize(
    ("display", "renamed"),
    [
        (r"\pi_t(\theta) \simeq \sum\limits_{n=1}^N w^i \delta(\theta^i)", [("n", "i")]),
        (r"q(\cdot) = \sum_k \alpha_j t_\nu(\cdot; \mu_j, \Sigma_j)", [("k", "j")]),
        (r"\sum_{(\bs{p}^j,\bs{n}^j)\in P_v} |g(\bs{p}^j_v, z) - d^j|", [(r"\bs{n}^j", "d^j")]),
        # The term ends at its relation: an index of the other side is not the term's.
        (r"\min_{m \in [M]} \sum_{t=0}^\infty \gamma^n R_n^m \leq \min_{m \in [M]} B^m_i(k)", [("t", "n")]),
        (r"\sum_{i=1}^n x_i + \sum_{(x_i, y_i) \in D} \ell(x_i, y_i)", []),
        (r"L_j = \sum_{i=1}^n w_{ij}", []),  # written inside a pair of indices
        (r"\sum_{i=1}^L Z_p \mathbb{E}_{p(z)}[f(z)]", []),  # p is applied: a name, not an index
        (r"S = \sum_{k=1}^K a_j b^m", []),  # two unbound indices: which one was meant is unknown
        (r"\sum_{i=1}^N c = N c", []),  # a constant summed: no other index in its place
        (r"\sum_{i=1}^N x_i % \sum_{k=1}^N y_j", []),  # a comment is no formula
        (r"\{x^t\}_{k=0}^{T-1}", [("k", "t")]),  # a set's index never written in its members
        (r"\{x^t\}_{t=0}^{T-1} \cup \{\mathbf{x}_i\}_{i \in [N]}", []),
    ],
)
def test_a_bound_symbol_the_formula_never_writes_names_the_unbound_one_in_its_place(display: str, renamed: list[tuple[str, str]]) -> None:
    assert [(found.bound, found.written) for found in renamed_bound_symbols(display)] == renamed


def test_a_paragraphs_formulas_are_its_inline_math_and_a_display_is_one() -> None:
    paragraph = r"from $\{x^t\}_{k=0}^{T-1}$ and \(a_i\), at \$5 % $b_j$"
    assert list(formulas(paragraph, displayed=False)) == [(6, r"\{x^t\}_{k=0}^{T-1}"), (33, "a_i")]
    assert list(formulas(r"\sum_i x_i", displayed=True)) == [(0, r"\sum_i x_i")]


@pytest.mark.parametrize(
    ("text", "short", "introduced"),
    [
        ("for speech/music discrimination (SMD) here", "SMD", True),
        ("the Cramer-Rao lower bound (CRB) converges", "CRB", True),  # an extra word between the initials
        ("much higher true positive rates (TPR's) and", "TPR", True),
        ("Low energy ratio (LER, also known as the SIF)", "LER", True),
        ("propagate in the DAG (Directed Acyclic Graph) network", "DAG", True),
        (r"propagate in the DAG \revise(Directed Acyclic Graph) network", "DAG", True),  # a revision mark around it
        ("we relied on continuous integration scripts (hereon CI\\@). The", "CI", True),
        ("the mean squared error (hereafter, MSE) of", "MSE", True),
        ("by saving an edit decision list, or EDL, which records", "EDL", True),
        (r"within the Regional Arctic System Model \citep[RASM;][]{Hamman_2016a}, a regional", "RASM", True),
        (r"within the model \citep[RASM;][]{Hamman_2016a}, a regional", "RASM", False),
        ("a graph network, or GNN, over", "GNN", False),
        ("encoded by a graph network (GNN) over", "GNN", False),  # words that miss a letter
        ("LLMs are popular", "LLM", False),
        ("as in the GNN (Table 3) results", "GNN", False),
        ("results (see GNN) here", "GNN", False),
        ("by estimating the ``average selection on gains'' ASG = TOT - TUT. This", "ASG", True),
        ("the model uses ASG = 3 here", "ASG", False),
    ],
)
def test_an_acronym_is_introduced_where_words_around_it_spell_it(text: str, short: str, introduced: bool) -> None:
    start = text.index(short)
    assert introduced_at(text, start, start + len(short), short) is introduced


@pytest.mark.parametrize(
    ("text", "short", "coded"),
    [
        ("the numbers of subject and attractor (SS, SP, PS and PP; S-singular, P-plural).", "PP", True),
        ("the main and embedded subjects - SS, SP, PS and PP. Similarly", "PP", True),
        ("conditions SSS, SSP, SPS, etc. and PPP", "PPP", True),
        ("across a prepositional phrase (PP) than a clause", "PP", False),
        ("the PP, the NP and the VP are phrases", "PP", False),  # acronyms listed together spell many letters
        ("the GPU, CPU and TPU numbers", "GPU", False),
    ],
)
def test_capitals_are_a_code_where_a_key_of_letters_or_sibling_codes_say_so(text: str, short: str, coded: bool) -> None:
    start = text.rindex(short)
    assert coded_by_letters(text, start, start + len(short), short) is coded
