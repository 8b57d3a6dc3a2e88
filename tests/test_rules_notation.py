"""NOT rules: redefined macros, symbol ranges, acronyms."""

import pytest
from helpers import document, rule_findings

from auditex.analyzers.rules import default_registry

# The rules' logic, apart from the measured-precision gate (tests of the gate: test_precision.py).
pytestmark = pytest.mark.usefixtures("every_class_measured_precise")


def run(tmp_path, files):
    """(code, line, message) of each NOT finding, in report order."""
    return [(f.code, f.range.start.line, f.message) for f in rule_findings(tmp_path, files, "NOT")]


def test_macro_redefined_after_use(tmp_path):
    preamble = "\\newcommand{\\loss}{\\mathcal{L}}"
    body = "\\section{Method}\nWe minimise $\\loss$.\n\n\\renewcommand{\\loss}{\\ell}\nThen $\\loss$.\n"
    found = run(tmp_path, {"main.tex": document(body, preamble)})
    assert [(code, line) for code, line, _ in found] == [("NOT001", 6)]
    assert "`\\mathcal{L}`" in found[0][2] and "`\\ell`" in found[0][2]


def test_macro_redefinitions_that_are_fine(tmp_path):
    preamble = (
        "\\newcommand{\\eqlabel}[1]{\\label{eq:#1}}\n"
        "\\input{macros}\n"
        "\\newcommand{\\pdata}{p_{data}}\n\\renewcommand{\\pdata}{p_{\\mathcal{D}}}\n"  # adjusted before any use
        "\\newcommand{\\todo}[1]{\\textbf{#1}}\n"
        "\\renewcommand{\\arraystretch}{1.2}\n"
        "\\newcommand{\\R}{\\mathbb{R}}\n\\providecommand{\\R}{R}\n"
    )
    body = (
        "\\section{Method}\n$x \\in \\R$, $\\pdata$ \\todo{fix} \\eqlabel{a}\n\n"
        "\\renewcommand{\\todo}[1]{}\n"  # switching notes off
        "\\def\\premise{A}\\premise\n\n\\def\\premise{B}\\premise\n\n\\def\\premise{C}\\premise\n"  # TeX local variable
    )
    files = {"main.tex": document(body, preamble), "macros.tex": "\\newcommand{\\eqlabel}[1]{\\label{eq:#1}}\n"}
    assert [code for code, _, _ in run(tmp_path, files) if code == "NOT001"] == []


def test_conflicting_ranges(tmp_path):
    body = (
        "\\section{Method}\nThe reward $r \\in [-1, 1]$ and $0 \\le \\lambda \\le 1$ and $\\hat{r} \\in [0,1]$.\n\n"
        "\\section{Appendix}\nWe assume $r \\in [0, 1]$ and $\\lambda \\in [0,1]$, with $Q < \\frac{1}{2}$ and $0 < Q < 1/2$.\n"
    )
    found = run(tmp_path, {"main.tex": document(body)})
    assert [(code, line) for code, line, _ in found] == [("NOT002", 7)]
    assert "[0, 1] here but [-1, 1] earlier" in found[0][2]


def test_two_ranges_in_one_paragraph_are_a_contrast(tmp_path):
    body = "\\section{Fit}\nOne map sends $x \\in [-1,1]$ and the other $x \\in [1,2]$.\n"
    assert run(tmp_path, {"main.tex": document(body)}) == []


def test_acronym_expansions(tmp_path):
    body = (
        "\\section{Intro}\nReinforcement learning (RL) is used. Large Language Models (LLMs) and large language model (LLM).\n\n"
        "Graph neural networks (GNNs) and graph-neural network (GNN).\n\n"
        "\\section{More}\nRepresentation learning (RL) differs.\n"
    )
    found = run(tmp_path, {"main.tex": document(body)})
    assert [(code, line) for code, line, _ in found if code == "NOT003"] == [("NOT003", 9)]


def test_formal_acronyms_conflict(tmp_path):
    preamble = "\\newacronym{nn}{NN}{neural network}\n\\newacronym{nn2}{NN}{nearest neighbour}"
    found = run(tmp_path, {"main.tex": document("Text.", preamble)})
    assert [code for code, _, _ in found] == ["NOT003"]


def test_acronym_used_before_definition(tmp_path):
    body = (
        "\\begin{abstract}We study KTO.\\end{abstract}\n"
        "\\section{Introduction}\nWe use KTO throughout. Kahneman-Tversky optimisation (KTO) is simple.\n\n"
        "KTO works. KTO again.\n"
    )
    found = run(tmp_path, {"main.tex": document(body)})
    assert [(code, line) for code, line, _ in found] == [("NOT004", 5)]


def test_undefined_acronym_is_a_quiet_hint(tmp_path):
    body = (
        "\\section{Method}\nWe fine-tune with XYZ here.\n\nXYZ converges. The GPU runs XYZ.\n\n"
        "BERT~\\cite{devlin} helps. BERT is used. BERT again.\n\nWe use ABC and ABC.\n"
    )
    found = run(tmp_path, {"main.tex": document(body)})
    assert [(code, message) for code, _, message in found] == [("NOT005", "XYZ is used 3 times but never defined")]
    assert default_registry().get("NOT005").severity.value == "hint"


def test_paper_wide_checks_join_their_sections(tmp_path):
    # Each rule sees the paper section by section; what it reports depends on the whole reading order.
    body = (
        "\\section{Introduction}\nWe use KTO and XYZ; see $\\loss$ and $r \\in [-1, 1]$.\n\n"
        "\\section{Method}\nKahneman-Tversky optimisation (KTO) and XYZ. Then FBB.\n\n"
        "\\input{later}\n"
    )
    later = "\\section{Results}\nXYZ wins. Fused block builders (FBB) help.\n\n\\renewcommand{\\loss}{\\ell}\nWe assume $r \\in [0, 1]$.\n"
    found = run(tmp_path, {"main.tex": document(body, "\\newcommand{\\loss}{\\mathcal{L}}"), "later.tex": later})
    assert found == [
        ("NOT001", 3, "`\\loss` was defined as `\\mathcal{L}` and is redefined here as `\\ell` after the text used it"),
        ("NOT002", 4, "`r` is given the range [0, 1] here but [-1, 1] earlier"),
        ("NOT004", 4, "KTO is used here before its definition"),
        ("NOT005", 4, "XYZ is used 3 times but never defined"),
        ("NOT004", 7, "FBB is used here before its definition"),
    ]


def test_a_redefinition_before_any_use_in_a_later_section_passes(tmp_path):
    body = "\\section{Method}\nPlain text.\n\n\\renewcommand{\\loss}{\\ell}\n\\section{Results}\nWe minimise $\\loss$.\n"
    assert run(tmp_path, {"main.tex": document(body, "\\newcommand{\\loss}{\\mathcal{L}}")}) == []


def test_definitions_in_the_branches_of_a_conditional_are_alternatives(tmp_path):
    # Definitions in the body, after the text used the macros: only the branches keep them apart.
    definitions = (
        "\\ifcomments\\newcommand{\\note}[1]{\\textcolor{blue}{#1}}\\else\\newcommand{\\note}[1]{[#1]}\\fi\n"
        "\\ifdraft\n\\newcommand{\\dist}{\\mathcal{D}}\n\\else\n\\newcommand{\\dist}{P}\n\\fi\n"
        "\\makeatletter\n\\if@twocolumn\\newcommand{\\wide}{2}\\else\\newcommand{\\wide}{1}\\fi\n\\makeatother\n"
        "\\ifx\\foo\\undefined\\newcommand{\\foo}{F}\\else\\renewcommand{\\foo}{G}\\fi\n"
        "\\ifdefined\\baz\\renewcommand{\\baz}{B}\\else\\newcommand{\\baz}{C}\\fi\n"
        "\\newcommand{\\loss}{\\mathcal{L}}\n\\iffalse\n\\renewcommand{\\loss}{\\ell}\n\\fi\n"
        "\\ifbool{final}{\\newcommand{\\data}{X}}{\\newcommand{\\data}{Y}}\n"
        "\\IfFileExists{mine.sty}{\\newcommand{\\model}{M}}{\\newcommand{\\model}{N}}\n"
    )
    uses = "$\\dist, \\wide, \\foo, \\baz, \\loss, \\data, \\model$ \\note{x}\n"
    body = f"\\section{{Method}}\n{uses}\n{definitions}\nAgain {uses}"
    preamble = "\\newif\\ifcomments\n\\newif\\ifdraft\n"
    assert run(tmp_path, {"main.tex": document(body, preamble)}) == []
    # The same definitions outside any conditional are redefinitions.
    plain = definitions.replace("\\else", "").replace("\\iffalse", "").replace("\\ifcomments", "").replace("\\ifdraft", "")
    found = run(tmp_path, {"main.tex": document(f"\\section{{Method}}\n{uses}\n{plain}\nAgain {uses}", preamble)})
    assert {message.split("`")[1] for code, _, message in found if code == "NOT001"} >= {"\\dist", "\\note", "\\loss"}


def test_switching_a_highlight_macro_off_is_not_a_change_of_notation(tmp_path):
    preamble = (
        "\\newcommand{\\new}[1]{\\textcolor{red}{#1}}\n"
        "\\newcommand{\\replace}[2]{\\sout{#1}\\textcolor{blue}{#2}}\n"
        "\\newcommand{\\hi}[1]{{\\color{red}#1}}\n"
    )
    body = (
        "\\section{Method}\n\\new{A} \\replace{B}{C} \\hi{D}\n\n"
        "\\renewcommand{\\new}[1]{#1}\n\\renewcommand{\\replace}[2]{#2}\n\\renewcommand{\\hi}[1]{{\\color{blue}#1}}\n"
        "\\new{E} \\replace{F}{G} \\hi{H}\n"
    )
    assert run(tmp_path, {"main.tex": document(body, preamble)}) == []


def test_a_body_redefinition_after_use_is_caught_beside_conditional_definitions(tmp_path):
    # A conditional preamble does not hide a slip in the body: both branches are replaced.
    # \\ifb (inverse femtobarns) is a unit macro, not a conditional: it opens no branch.
    preamble = (
        "\\newif\\ifdraft\n\\ifdraft\\newcommand{\\dist}{\\mathcal{D}}\\else\\newcommand{\\dist}{\\mathbb{D}}\\fi\n"
        "\\newcommand{\\ifb}{\\mathrm{fb}^{-1}}\n"
    )
    body = "\\section{Method}\nSamples from $\\dist$ in $36~\\ifb$.\n\n\\section{Appendix}\n\\renewcommand{\\dist}{P}\nAgain $\\dist$.\n"
    found = run(tmp_path, {"main.tex": document(body, preamble)})
    assert [(code, line) for code, line, _ in found] == [("NOT001", 10)]


def test_a_switch_declared_in_another_file_still_makes_branches(tmp_path):
    # The macros file prints a line, so its definitions have a place in reading order: a file that prints nothing
    # (its conditionals' tokens print nothing either) gives the rule no block to order them by.
    macros = "\\ifcomments\n\\newcommand{\\note}[1]{\\textbf{#1}}\n\\else\n\\newcommand{\\note}[1]{(#1)}\n\\fi\nNotes are set.\n"
    main = document("\\section{Method}\nText \\note{a}.\n\n\\input{macros}\n\nMore \\note{b}.\n", "\\newif\\ifcomments")
    assert run(tmp_path, {"main.tex": main, "macros.tex": macros}) == []
    found = run(tmp_path, {"main.tex": main, "macros.tex": macros.replace("\\ifcomments", "").replace("\\else", "")})
    assert [code for code, _, _ in found] == ["NOT001"]


def test_a_redefinition_in_a_file_that_prints_nothing_sits_at_the_input_that_includes_it(tmp_path):
    body = "\\section{Method}\nWe minimise $\\loss$.\n\n\\input{macros}\n\n\\section{Appendix}\nAgain $\\loss$.\n"
    files = {"main.tex": document(body, "\\newcommand{\\loss}{\\mathcal{L}}"), "macros.tex": "\\renewcommand{\\loss}{\\ell}\n"}
    assert [(code, line) for code, line, _ in run(tmp_path, files)] == [("NOT001", 0)]
    # Input before the text uses it, the new meaning is the only one printed.
    files["main.tex"] = document(
        body.replace("\\input{macros}\n\n", "").replace("\\section{Method}", "\\input{macros}\n\\section{Method}"),
        "\\newcommand{\\loss}{\\mathcal{L}}",
    )
    assert run(tmp_path, files) == []


def test_an_acronym_defined_again_with_other_words_is_caught(tmp_path):
    body = (
        "\\section{Method}\nWe use a Simple Recurrent Unit (SRU) and a graph neural network (GNN).\n\n"
        "\\section{Results}\nThe Adaptive Recurrent Unit (SRU) is fast. The Hierarchical Attention Network (GNN) is slow. "
        "Our Best Model (SRU) wins.\n\n"
        "The Simple Recurrent Units (SRUs) and the Recurrent Model (XYZ) are cited.\n"
    )
    found = [(code, line, message) for code, line, message in run(tmp_path, {"main.tex": document(body)}) if code == "NOT003"]
    assert [(line, message) for _, line, message in found] == [
        (7, 'SRU is expanded as "Adaptive Recurrent Unit" here but as "Simple Recurrent Unit" earlier'),
        (7, 'GNN is expanded as "Hierarchical Attention Network" here but as "graph neural network" earlier'),
    ]


def test_an_expansion_elaborated_or_inside_a_longer_name_is_not_another_meaning(tmp_path):
    body = (
        "\\section{Bounds}\nWe compare with the Cramer-Rao bound (CRB) and the Bogoliubov-de Gennes (BdG) equations.\n\n"
        "\\section{Results}\nThe error meets the Cramer-Rao lower bound (CRB). The Bogoliubov-de Gennes Hamiltonian (BdG) is solved.\n"
    )
    assert [item for item in run(tmp_path, {"main.tex": document(body)}) if item[0] == "NOT003"] == []


@pytest.mark.parametrize("definition", ["adaptive mixtures of importance sampling (AMIS)", "a high signal-to-noise ratio (SNR)"])
def test_a_definition_whose_joining_words_carry_no_letter_is_a_definition(tmp_path, definition):
    short = definition.rpartition("(")[2].rstrip(")")
    body = f"\\section{{Method}}\nWe use {definition} here.\n\n{short} converges. {short} is fast. {short} wins.\n"
    assert [item for item in run(tmp_path, {"main.tex": document(body)}) if item[0] in ("NOT004", "NOT005")] == []


def test_letters_of_a_label_key_in_a_custom_reference_are_no_acronym(tmp_path):
    preamble = "\\newcommand{\\sectionref}[1]{Section~\\ref{#1}}"
    body = "\\section{Theory}\\label{Appendix:TW}\nAs in \\sectionref{Appendix:TW}, the rate follows.\n\n\\section{Two waves}\nTwo waves (TW) interfere.\n"
    assert [item for item in run(tmp_path, {"main.tex": document(body, preamble)}) if item[0] == "NOT004"] == []


def test_acronyms_restated_as_a_contrast_are_information(tmp_path):
    body = (
        "\\section{Frequentist intervals}\nA confidence level (CL) confidence interval (CI) covers the true value.\n\n"
        "\\section{Bayesian intervals}\nA credibility level (CL) credible interval (CI) holds it with probability.\n\n"
        "\\section{Terms}\nWe write TS for a test statistic (TS), unlike a time series (TS) elsewhere.\n\n"
        "\\section{Energy}\nWe study carbon-free electricity (CFE).\n\nLater, carbon-free energy (CFE) matters.\n"
    )
    found = rule_findings(tmp_path, {"main.tex": document(body)}, "NOT003")
    assert sorted((f.message.split()[0], f.severity.value) for f in found) == [
        ("CFE", "warning"),
        ("CI", "information"),
        ("CL", "information"),
        ("TS", "information"),
    ]


def test_ranges_of_quantified_local_symbols_are_information(tmp_path):
    body = (
        "\\section{Theory}\nSuppose there exists $\\delta \\in (0,1)$ such that the rate holds.\n\n"
        "\\section{Proofs}\n\\begin{proof}\nFix $\\eta > 0, \\delta \\in (0, 0.1)$. Then the event holds.\n\\end{proof}\n\n"
        "\\section{Method}\nThe weight $w \\in [0, 1]$ is learned.\n\n\\section{Appendix}\nHere $w \\in [-1, 1]$.\n"
    )
    found = [(f.message, f.severity.value) for f in rule_findings(tmp_path, {"main.tex": document(body)}, "NOT002")]
    assert found == [
        ("`δ` is given the range [0, 0.1] here but [0, 1] earlier", "information"),
        ("`w` is given the range [-1, 1] here but [0, 1] earlier", "warning"),
    ]


def test_an_expansion_with_one_word_swapped_is_a_redefinition(tmp_path):
    body = (
        "\\section{Method}\nWe use a simple recurrent unit (SRU) and a neural network (NN).\n\n"
        "\\section{Results}\nThe adaptive recurrent unit (SRU) is fast. We train a network (NN) and our network (NN).\n"
    )
    found = [message for code, _, message in run(tmp_path, {"main.tex": document(body)}) if code == "NOT003"]
    assert found == ['SRU is expanded as "adaptive recurrent unit" here but as "simple recurrent unit" earlier']


def test_each_other_expansion_is_reported_once(tmp_path):
    body = (
        "\\section{Intro}\nWe build on carbon-free electricity (CFE).\n\n"
        "\\section{Method}\nWe study carbon-free energy (CFE).\n\nAgain Carbon-Free Energy (CFE).\n\n"
        "\\section{Results}\nThe Cascaded Feature Extractor (CFE) differs.\n"
    )
    found = [message for code, _, message in run(tmp_path, {"main.tex": document(body)}) if code == "NOT003"]
    assert found == [
        'CFE is expanded as "carbon-free energy" here but as "carbon-free electricity" earlier',
        'CFE is expanded as "Cascaded Feature Extractor" here but as "carbon-free electricity" earlier',
    ]


def test_an_expansion_restated_with_other_endings_case_or_hyphens_is_the_same(tmp_path):
    body = (
        "\\section{Intro}\nWe use distant supervision (DS), convolutional neural networks (CNNs), a Markov decision process (MDP) "
        "and long short-term memory (LSTM) for Named Entity Recognition (NER).\n\n"
        "\\section{Method}\nOur distantly supervised (DS) data feeds a convolutional neural network (CNN) in a Markov Decision "
        "Processes (MDP) with long-short term memory (LSTM) for named entity recognition (NER).\n\n"
        "\\section{Results}\nA Masked decision process (MDP) and decision supervision (DS) are other terms.\n"
    )
    found = [message for code, _, message in run(tmp_path, {"main.tex": document(body)}) if code == "NOT003"]
    assert found == [
        'MDP is expanded as "Masked decision process" here but as "Markov decision process" earlier',
        'DS is expanded as "decision supervision" here but as "distant supervision" earlier',
    ]


def test_an_expansion_restated_with_a_joining_word_is_the_same(tmp_path):
    body = (
        "\\section{Intro}\nWe use adaptive mixtures of importance sampling (AMIS).\n\n"
        "\\section{Method}\nThe adaptive mixture importance sampling (AMIS) runs. The Arcade Learning Environment (ALE) is used.\n\n"
        "\\section{Results}\nThe Atari Learning Environment (ALE) differs.\n"
    )
    found = [message for code, _, message in run(tmp_path, {"main.tex": document(body)}) if code == "NOT003"]
    assert found == ['ALE is expanded as "Atari Learning Environment" here but as "Arcade Learning Environment" earlier']


def test_an_expansion_restated_without_a_word_that_spells_no_letter_is_the_same(tmp_path):
    body = (
        "\\section{Intro}\nWe build a rate- and state-dependent friction (RSF) model.\n\n"
        "\\section{Method}\nWe apply a numerical rate- and state-friction (RSF) model.\n"
    )
    assert [item for item in run(tmp_path, {"main.tex": document(body)}) if item[0] == "NOT003"] == []
