"""NUM rules on small LaTeX projects: prose vs table, same quantity, arithmetic claims."""

from pathlib import Path

import pytest
from helpers import rule_findings

# The rules' logic, apart from the measured-precision gate (tests of the gate: test_precision.py).
pytestmark = pytest.mark.usefixtures("every_class_measured_precise")

TABLE = r"""
\begin{table}\centering
\begin{tabular}{lcc}\toprule
Method & AlpacaEval & MT-Bench \\ \midrule
Baseline & 30.12 & 6.10 \\
Ours & 38.66 & 7.25 \\ \bottomrule
\end{tabular}
\caption{Main results.}\label{tab:main}
\end{table}
"""


def findings(tmp_path: Path, body: str, code: str):
    return rule_findings(tmp_path, "\\documentclass{article}\n\\begin{document}\n" + body + "\n\\end{document}\n", code)


def test_prose_number_contradicting_its_table_cell(tmp_path):
    found = findings(tmp_path, "\\section{Results}\nOurs reaches 48.66 on AlpacaEval (Table~\\ref{tab:main}).\n" + TABLE, "NUM001")
    assert len(found) == 1
    finding = found[0]
    assert "48.66" in finding.message and "38.66" in finding.message and "Ours" in finding.message
    assert finding.range.start.line == 3
    assert finding.related and finding.related[0].range.start.line > 3
    assert finding.fixes and finding.fixes[0].edits[0].new_text == "38.66" and not finding.fixes[0].safe


def test_rounded_prose_number_and_other_settings_are_fine(tmp_path):
    body = (
        "\\section{Results}\nOurs reaches 38.7 on AlpacaEval and 7.25 on MT-Bench (Table~\\ref{tab:main}), "
        "while on our private set it scores 48.66.\n" + TABLE
    )
    assert findings(tmp_path, body, "NUM001") == []


def test_number_tied_to_no_table_is_not_matched(tmp_path):
    body = "\\section{Results}\nThe learning rate of 38.67 was chosen by a sweep.\n" + TABLE
    assert findings(tmp_path, body, "NUM001") == []


def test_fraction_cell_matches_percentage_in_text(tmp_path):
    table = TABLE.replace("38.66", "0.3866")
    body = "\\section{Results}\nOurs reaches 38.66\\% on AlpacaEval (Table~\\ref{tab:main}).\n" + table
    assert findings(tmp_path, body, "NUM001") == []


def test_same_quantity_with_two_values(tmp_path):
    body = (
        "\\begin{abstract}Our method improves accuracy on ImageNet by 12.3\\% over the strong baseline.\\end{abstract}\n"
        "\\section{Results}\nIn short, the method improves accuracy on ImageNet by 12.8\\% over the strong baseline.\n"
    )
    found = findings(tmp_path, body, "NUM002")
    assert len(found) == 1 and "12.8%" in found[0].message and "12.3%" in found[0].message
    assert found[0].related[0].range.start.line == 2


def test_same_words_for_different_datasets_are_not_the_same_quantity(tmp_path):
    body = (
        "\\section{Setup}\nWe train on CIFAR with a learning rate of 0.01 for the whole schedule.\n\n"
        "On ImageNet we train with a learning rate of 0.02 for the whole schedule.\n"
    )
    assert findings(tmp_path, body, "NUM002") == []


def test_arithmetic_claim_that_does_not_follow(tmp_path):
    body = "\\section{Results}\nSuccess rises from 68.0 to 72.0 (+6.0) with the new action space.\n"
    found = findings(tmp_path, body, "NUM003")
    assert len(found) == 1 and "+4.0" in found[0].message


def test_arithmetic_claims_absolute_and_relative_that_agree(tmp_path):
    body = (
        "\\section{Results}\nSuccess rises from 68.0 to 72.0 (+4.0). Accuracy improves from 40.0\\% to 50.0\\%, "
        "a relative improvement of 25\\%. Error drops from 10.0 to 8.0 (-2.0).\n"
    )
    assert findings(tmp_path, body, "NUM003") == []


def test_row_named_by_a_user_macro_ties_prose_to_the_table(tmp_path):
    body = (
        "\\newcommand{\\method}{SparseProbe}\n"
        "On GLUE-Probe, \\method{} reaches 83.2\\% accuracy, while the dense probe reaches 77.1\\%.\n"
        "\\begin{table}\\centering\\begin{tabular}{lcc}\\toprule\nMethod & GLUE-Probe & SentEval \\\\ \\midrule\n"
        "Dense probe & 77.1 & 70.4 \\\\\n\\method{} & 81.2 & 74.9 \\\\ \\bottomrule\n\\end{tabular}\\caption{Accuracy.}\\end{table}\n"
    )
    found = findings(tmp_path, body, "NUM001")
    assert len(found) == 1 and "83.2" in found[0].message and "81.2" in found[0].message
    assert findings(tmp_path, body.replace("83.2", "81.2"), "NUM001") == []


HYPER = r"""
\begin{table}\centering
\begin{tabular}{lcc}\toprule
Setting & CIFAR-10 & SVHN \\ \midrule
Learning Rate & 0.5 & 0.7 \\
Weight Decay & 0.2 & 0.1 \\ \bottomrule
\end{tabular}
\caption{Hyper-parameters.}\label{tab:hyper}
\end{table}
"""


def test_cell_named_by_row_and_column_outvotes_cells_of_other_values(tmp_path):
    # 0.6 is one digit from 0.5 (Learning Rate, CIFAR-10), 0.7 (SVHN) and 0.2 (Weight Decay): the sentence names one.
    body = "\\section{Setup}\nOn CIFAR-10, the learning rate is 0.6 (Table~\\ref{tab:hyper}).\n" + HYPER
    found = findings(tmp_path, body, "NUM001")
    assert len(found) == 1 and "says 0.5" in found[0].message and "Learning Rate" in found[0].message


def test_cells_named_equally_with_different_values_stay_ambiguous(tmp_path):
    # The sentence names the row of 0.5 and of 0.7 and no column: which cell is meant is unclear.
    body = "\\section{Setup}\nThe learning rate is 0.6 (Table~\\ref{tab:hyper}).\n" + HYPER
    assert findings(tmp_path, body, "NUM001") == []


def test_value_of_a_cell_in_another_row_does_not_hide_a_mistyped_quote(tmp_path):
    # 0.1 is a cell (Weight Decay, SVHN), but the sentence names Learning Rate and CIFAR-10, whose cell is 0.5.
    body = "\\section{Setup}\nOn CIFAR-10, the learning rate is 0.1 (Table~\\ref{tab:hyper}).\n" + HYPER
    found = findings(tmp_path, body, "NUM001")
    assert len(found) == 1 and "says 0.5" in found[0].message


def test_value_of_a_cell_with_a_partly_named_header_is_a_quote(tmp_path):
    # "rate" names the row "Step Rate" only in part: 0.1 may well be the weight decay someone meant.
    table = HYPER.replace("Learning Rate", "Step Rate").replace("0.2", "0.33")
    partly = "\\section{Setup}\nOn CIFAR-10, the rate is 0.1 (Table~\\ref{tab:hyper}).\n" + table
    assert findings(tmp_path, partly, "NUM001") == []
    fully = partly.replace("the rate", "the step rate")
    assert len(findings(tmp_path, fully, "NUM001")) == 1
    # A value that the named row and column hold is a correct quote.
    correct = "\\section{Setup}\nOn SVHN, the weight decay is 0.1 and the learning rate 0.7 (Table~\\ref{tab:hyper}).\n" + HYPER
    assert findings(tmp_path, correct, "NUM001") == []


def test_interval_levels_are_not_results_to_compare(tmp_path):
    # The quantity model: a confidence or credibility level sets an interval, it states no result.
    body = (
        "\\section{Statistics}\nSo the 95\\% confidence level confidence interval covers the true value.\n\n"
        "To construct a 75\\% confidence level central confidence interval, use the Student distribution.\n"
    )
    assert findings(tmp_path, body, "NUM002") == []
    body = (
        "\\section{Method}\nWe set 95\\% credibility level (CL) upper limits on the cross section.\n\n"
        "\\section{Results}\nNo excess is seen, so 75\\% credibility level upper limits, competitive with "
        "published limits~\\cite{EXOT-2017-32} in \\Cref{fig:limits}, are set.\n"
    )
    assert findings(tmp_path, body, "NUM002") == []


def test_two_shared_words_count_when_one_is_a_shared_name(tmp_path):
    body = (
        "\\section{Results}\nOn ML-45 our agent sets a new state of the art, compared to 79\\% from DualMind~\\cite{wei2023}.\n\n"
        "\\section{Prior work}\nDualMind~\\cite{wei2023} achieves 89\\% success rate on ML-45.\n"
    )
    found = findings(tmp_path, body, "NUM002")
    assert len(found) == 1 and "89%" in found[0].message
    # Without the shared name the two words around the numbers are not enough.
    assert findings(tmp_path, body.replace("DualMind", "the agent"), "NUM002") == []


def test_function_words_do_not_make_two_quantities_the_same(tmp_path):
    body = (
        "\\begin{abstract}CoFie reduces the shape error by 48\\% and 56\\% on novel instances of both training and "
        "unseen shape categories.\\end{abstract}\n\\section{Introduction}\nResults show that our model outperforms "
        "prior arts, reducing the chamfer distance by 50\\% on instances from both seen and unseen categories.\n"
    )
    assert findings(tmp_path, body, "NUM002") == []


def warnings(found):
    return [f for f in found if f.severity.value in ("warning", "error")]


def test_a_list_of_values_is_a_grid_not_a_quote_of_a_cell(tmp_path):
    # Shape 2: a hyper-parameter set or list is never tied to a cell, nor restated.
    grid = "\\section{Setup}\nOn CIFAR-10 the learning rate is searched over $\\{0.1, 0.3, 0.6, 0.9\\}$ (Table~\\ref{tab:hyper}).\n" + HYPER
    assert findings(tmp_path, grid, "NUM001") == []
    listed = "\\section{Setup}\nOn CIFAR-10 the learning rate is one of 0.6, 0.8 and 0.9 (Table~\\ref{tab:hyper}).\n" + HYPER
    assert findings(tmp_path, listed, "NUM001") == []
    single = "\\section{Setup}\nOn CIFAR-10 the learning rate is 0.6 (Table~\\ref{tab:hyper}).\n" + HYPER
    assert len(warnings(findings(tmp_path, single, "NUM001"))) == 1
    # Results listed with "respectively" are quotes.
    results = "\\section{Results}\nBaseline and Ours reach 30.12 and 48.66 on AlpacaEval, respectively (Table~\\ref{tab:main}).\n" + TABLE
    assert ["48.66" in f.message for f in findings(tmp_path, results, "NUM001")] == [True]


def test_a_swept_parameter_is_not_a_restated_quantity(tmp_path):
    body = (
        "\\section{Setup}\nWe sweep the dropout rate of the encoder over $p \\in \\{0.15, 0.25, 0.35\\}$ in all runs.\n\n"
        "\\section{Results}\nThe dropout rate of the encoder is 0.45 in all runs of the final model.\n"
    )
    assert findings(tmp_path, body, "NUM002") == []


def test_grid_descriptions_are_not_arithmetic_claims(tmp_path):
    # Shape 9a: "from A to B by steps of C" spans a grid; it claims no change.
    body = (
        "\\section{Setup}\nThe speed goes from 0.5 to 3 m/s by steps of 0.05. The width varies from 1 to 9 mm "
        "by 2 mm. The load ranges from 10 to 50 N in increments of 5 N.\n"
    )
    assert findings(tmp_path, body, "NUM003") == []
    claim = "\\section{Results}\nAccuracy goes from 40.0 to 50.0 by 20.0 points.\n"
    assert len(warnings(findings(tmp_path, claim, "NUM003"))) == 1


def test_an_arithmetic_claim_about_another_quantity_further_on_is_information(tmp_path):
    body = "\\section{Results}\nTraining from 10 to 20 epochs improves accuracy by 3 points.\n"
    found = findings(tmp_path, body, "NUM003")
    assert len(found) == 1 and found[0].severity.value == "information" and found[0].confidence < 0.7


def test_significance_levels_and_bounds_are_not_results(tmp_path):
    # Thresholds and bounds: "p < 0.05" in one analysis and "p < 0.01" in another are two choices, not a slip.
    body = (
        "\\section{Analysis}\nEffects were considered significant at $p < 0.05$ for the main reading time analysis.\n\n"
        "\\section{Control}\nEffects were considered significant at $p < 0.01$ for the control reading time analysis.\n\n"
        "We used a significance level of 0.05 for the main reading time comparisons.\n\n"
        "We used a significance level of 0.01 for the control reading time comparisons.\n"
    )
    assert warnings(findings(tmp_path, body, "NUM002")) == []


def test_targets_parameters_and_distribution_arguments_are_settings(tmp_path):
    body = (
        "\\section{Scenarios}\nFor an 80\\%~CFE target, participating consumers procure less capacity than under the RES policy.\n\n"
        "\\section{Results}\nA CFE target of 90\\% yields lower emissions, and participating consumers procure less capacity.\n\n"
        "Emissions fall further when the CFE target surpasses 85\\% and participating consumers procure less capacity.\n\n"
        "The Bayes factors favour the effect under the Normal(0, 0.05) prior on the slopes of the model.\n\n"
        "The Bayes factors favour the effect under the Normal(0, 0.01) prior on the slopes of the model.\n\n"
        "Runs use ${\\lambda = 0.005}$ as the smallest regularization parameter value here.\n\n"
        "Runs use ${\\lambda = 0.025}$ as the largest regularization parameter value here.\n"
    )
    assert warnings(findings(tmp_path, body, "NUM002")) == []


def test_ranges_approximations_and_versions_are_not_restated_values(tmp_path):
    body = (
        "\\section{Results}\nThe ECO and CCOT trackers achieve 15\\%-20\\% higher precision than ours on OTB100.\n\n"
        "The precision of the ECO and CCOT trackers dropped about 10\\% on OTB100 without deep features.\n\n"
        "We ran a Bayesian ANOVA with three conditions in JASP (0.16.3) with a default uniform prior.\n\n"
        "We ran a Bayesian ANOVA with three conditions in JASP (0.13.1.0) with a default cauchy prior.\n"
    )
    assert findings(tmp_path, body, "NUM002") == []


def test_a_name_next_to_one_number_only_names_another_condition(tmp_path):
    # "FaRM/YCSB" next to 40% names a workload the first sentence never mentions: information, not a warning.
    body = (
        "\\section{Key-value store}\nIn a uniform workload, FaRM delivers 50\\% throughput of the new system.\n\n"
        "With few writes, FaRM/YCSB delivers 40\\% throughput of the new system with two keys per transaction.\n"
    )
    found = findings(tmp_path, body, "NUM002")
    assert found and warnings(found) == []


def test_a_rise_and_a_fall_are_two_quantities(tmp_path):
    body = (
        "\\section{Results}\nThe KV lookup throughput of the store improves by 12.5\\% with batching.\n\n"
        "The KV lookup throughput of the store drops by 13.5\\% with reordering.\n"
    )
    assert findings(tmp_path, body, "NUM002") == []


def test_confidence_of_a_quote_follows_its_tie_and_its_digits(tmp_path):
    # Cited table, row named, four figures: a warning.
    strong = "\\section{Results}\nOurs reaches 48.66 on AlpacaEval (Table~\\ref{tab:main}).\n" + TABLE
    found = findings(tmp_path, strong, "NUM001")
    assert len(found) == 1 and found[0].confidence >= 0.9 and found[0].severity.value == "warning"
    # Only the paragraph cites the table, and 38.8 is one unit off 38.7 in its last place (two roundings): information.
    weak = (
        "\\section{Results}\nThe AlpacaEval score is 38.8 over all prompts. "
        "Per-method scores are in Table~\\ref{tab:main}.\n" + TABLE.replace("38.66", "38.7")
    )
    found = findings(tmp_path, weak, "NUM001")
    assert len(found) == 1 and found[0].confidence < 0.7 and found[0].severity.value == "information"
    # "On average" over all prompts quotes no single method's cell.
    assert findings(tmp_path, weak.replace("The AlpacaEval score is", "On average, the AlpacaEval score is"), "NUM001") == []


def test_whole_number_quotes_a_cited_table_only_where_it_counts_what_the_cell_names(tmp_path):
    table = (
        r"\begin{table}\centering\begin{tabular}{lcc}\toprule"
        "\n"
        r"Genome & Genes missing & Transcripts \\ \midrule"
        "\n"
        r"Rhesus & 138 & 4021 \\ Mouse & 95 & 3310 \\ \bottomrule"
        "\n"
        r"\end{tabular}\caption{Annotation.}\label{tab:busco}\end{table}"
        "\n"
    )
    slip = "\\section{Results}\nFor Rhesus, 128 genes were missing (Table~\\ref{tab:busco}).\n" + table
    [found] = findings(tmp_path, slip, "NUM001")
    assert "says 138" in found.message and found.evidence.statements[0].role == "count"
    # 148 years is one digit from 138, in a sentence citing the table, but the table counts no years.
    other = "\\section{Results}\nFor Rhesus, our runs of 148 years are in Table~\\ref{tab:busco}.\n" + table
    assert findings(tmp_path, other, "NUM001") == []


def test_ordinary_header_words_without_a_reference_are_a_weak_tie(tmp_path):
    table = (
        r"\begin{table}\centering\begin{tabular}{lcc}\toprule"
        "\n"
        r"Stitch & Trace & Insulation \\ \midrule"
        "\n"
        r"Width & 1.0 mm & 1.8 mm \\ \bottomrule"
        "\n"
        r"\end{tabular}\caption{Stitches.}\label{tab:stitches}\end{table}"
        "\n"
    )
    body = "\\section{Tests}\n" + table + "\\section{Insulation}\nA stitch of 1.5 mm width insulates a conductive trace.\n"
    assert warnings(findings(tmp_path, body, "NUM001")) == []


def test_a_plain_number_is_not_the_percentage_of_a_fraction_cell(tmp_path):
    table = TABLE.replace("6.10", "0.0195")
    body = "\\section{Results}\nWe compare with EPOS 1.99 and the Baseline on MT-Bench (Table~\\ref{tab:main}).\n" + table
    assert findings(tmp_path, body, "NUM001") == []
    assert len(findings(tmp_path, body.replace("EPOS 1.99", "a rate of 1.99\\%"), "NUM001")) == 1


def test_a_figure_cited_next_to_the_table_leaves_the_table_cited_alone(tmp_path):
    # Slip: a number of a sentence citing its table changed by one digit, the sentence also citing a figure.
    table = TABLE.replace("Ours & 38.66", "Average & 2.3")
    body = (
        "\\section{Results}\nWe see from Table~\\ref{tab:main} and Figure~\\ref{fig:f1} that our approach "
        "outperforms the patterns by 3.3 times.\n" + table
    )
    found = findings(tmp_path, body, "NUM001")
    assert len(found) == 1 and found[0].severity.value == "warning" and "2.3" in found[0].message


def test_abstract_number_restated_in_the_body(tmp_path):
    # Slip: the abstract's copy of a count changed; the body restates it with the same words.
    body = (
        "\\begin{abstract}Results: We identified 67 studies containing 196 unique evaluations across LMICs.\\end{abstract}\n"
        "\\section{Results}\nOut of the 57 unique studies identified, 14 included both perspectives.\n\n"
        "The 57 studies identified contain 196 unique evaluations.\n\n"
        "Our implementation ran at 340 fps for OTB100 and at 416 fps for UAV123.\n"
    )
    found = findings(tmp_path, body, "NUM002")
    # The first body sentence that restates what the abstract counts, in its own words ("57 unique studies identified"):
    # the abstract is reported once, however often the body restates it.
    assert [(f.severity.value, f.range.start.line, f.related[0].range.start.line) for f in found] == [("warning", 4, 2)]
    assert "67" in found[0].message and "57" in found[0].message
    # Counts in two body sentences vary with what they describe: not compared.
    assert findings(tmp_path, body.replace("\\begin{abstract}", "\\section{Intro}").replace("\\end{abstract}", ""), "NUM002") == []


def test_abstract_number_that_a_table_holds_is_compared_with_the_body(tmp_path):
    # The body quotes the table (48.66); the abstract's copy is the slip, and the finding lands there.
    body = (
        "\\begin{abstract}On AlpacaEval, our model reaches a win rate of 58.66\\% against the baseline.\\end{abstract}\n"
        "\\section{Results}\nOn AlpacaEval, our model reaches a win rate of 38.66\\% against the baseline (Table~\\ref{tab:main}).\n"
        + TABLE
    )
    found = findings(tmp_path, body, "NUM002")
    assert len(found) == 1 and found[0].range.start.line == 2 and found[0].severity.value == "warning"


SPEEDUPS = r"""
\begin{table}\centering
\begin{tabular}{lcc}\toprule
Project & F1 & Improvement \\ \midrule
\textbf{Ant} & 0.517 & 2.1$\times$ \\
\textbf{Hibernate} & 0.744 & 3.2$\times$ \\
\textbf{JMeter} & 0.731 & 3.7$\times$ \\ \midrule
\textbf{Average} & 0.620 & 2.3$\times$ \\ \bottomrule
\end{tabular}
\caption{Improvement per project.}\label{tab:speedup}
\end{table}
"""


def test_on_average_names_the_average_row(tmp_path):
    # 3.3 is one digit from 2.3 (Average), 3.2 and 3.7: "on average" says which cell is meant.
    body = "\\section{Results}\nOn average, our approach improves the F1 by 3.3 times (Table~\\ref{tab:speedup}).\n" + SPEEDUPS
    found = warnings(findings(tmp_path, body, "NUM001"))
    assert len(found) == 1 and "says 2.3" in found[0].message and "Average" in found[0].message
    # Without the aggregate the three cells stay equally likely.
    body = "\\section{Results}\nOur approach improves the F1 by 3.3 times (Table~\\ref{tab:speedup}).\n" + SPEEDUPS
    assert findings(tmp_path, body, "NUM001") == []
    # The right average is a quote.
    body = "\\section{Results}\nOn average, our approach improves the F1 by 2.3 times (Table~\\ref{tab:speedup}).\n" + SPEEDUPS
    assert findings(tmp_path, body, "NUM001") == []


# Issue 19's shapes: numbers that only share words are not one quantity.


def test_coefficients_of_two_specifications_are_not_one_quantity(tmp_path):
    body = (
        "\\section{Results}\nIn the baseline specification the coefficient is $-0.228$ and significant.\n\n"
        "\\section{Robustness}\nWith region fixed effects the coefficient remains negative, at $-0.222$.\n"
    )
    assert findings(tmp_path, body, "NUM002") == []


def test_shares_of_one_base_are_different_quantities(tmp_path):
    body = (
        "\\section{Transfers}\nPublic transfers equal 3.0 percent of mean income in the sample.\n\n"
        "\\section{Losses}\nThe average loss from the shock amounts to 5.0 percent of mean income in the sample.\n"
    )
    assert findings(tmp_path, body, "NUM002") == []


def test_the_same_subject_restated_with_another_value_is_reported_with_both_subjects(tmp_path):
    body = (
        "\\begin{abstract}Our model improves top-1 accuracy on ImageNet by 12.3\\%.\\end{abstract}\n"
        "\\section{Results}\nOverall, our model improves top-1 accuracy on ImageNet by 12.8\\% over the baseline.\n"
    )
    [found] = findings(tmp_path, body, "NUM002")
    assert found.message.count('top-1 accuracy imagenet"') == 2, found.message
    assert found.evidence.kind == "abstract restates, same subject"
    assert [side.role for side in found.evidence.statements] == ["relative change", "relative change"]


def test_an_interval_level_and_a_relative_change_quote_no_cell(tmp_path):
    table = TABLE.replace("38.66", "95.5").replace("6.10", "15.5")
    level = "\\section{Results}\nCases of Ours on AlpacaEval rose (95.4\\%CrI: 2,230-2,700; Table~\\ref{tab:main}).\n" + table
    assert findings(tmp_path, level, "NUM001") == []
    change = "\\section{Results}\nOn AlpacaEval the correction lowers Ours by 15.4\\% (Table~\\ref{tab:main}).\n" + table
    assert findings(tmp_path, change, "NUM001") == []


# Issue 19 item 5: recall where slips happen.


def test_a_rounded_quote_with_a_mistyped_digit_is_one_digit_from_its_cell(tmp_path):
    # The cell holds 0.767; the sentence rounds it to two places and mistypes one: 0.87 is one digit from 0.77.
    table = TABLE.replace("7.25", "0.767")
    found = findings(tmp_path, "\\section{Results}\nOurs reaches 0.87 on MT-Bench (Table~\\ref{tab:main}).\n" + table, "NUM001")
    assert len(found) == 1 and "says 0.767" in found[0].message and found[0].fixes[0].edits[0].new_text == "0.77"
    # The right rounding is a quote.
    assert findings(tmp_path, "\\section{Results}\nOurs reaches 0.77 on MT-Bench (Table~\\ref{tab:main}).\n" + table, "NUM001") == []
    # A rounding that drops two places, or keeps one figure, is one digit from too many numbers: 0.2 of 0.187.
    for cell, quoted in (("0.76712", "0.87"), ("0.187", "1.2")):
        text = f"\\section{{Results}}\nOurs reaches {quoted} on MT-Bench (Table~\\ref{{tab:main}}).\n" + TABLE.replace("7.25", cell)
        assert findings(tmp_path, text, "NUM001") == []


PANELS = r"""
\begin{table}\centering
\begin{tabular}{lccc}\toprule
\multicolumn{4}{l}{Panel A: completed trips} \\ \midrule
 & Obs & Mean & SD \\ \midrule
Trip fare (SGD) & 23801 & 12.85 & 7.33 \\
Trip duration (mins) & 23801 & 20.12 & 10.28 \\ \bottomrule
\end{tabular}
\caption{Summary statistics.}\label{tab:stats}
\end{table}
"""


def test_an_average_quotes_a_mean_column_that_a_panel_heads_inside_the_body(tmp_path):
    # "Mean" heads the column below the panel's title row: the average the sentence states is that column's cell.
    body = "\\section{Data}\nAn average trip takes 30.12 minutes and earns 12.85 SGD (Panel A, Table~\\ref{tab:stats}).\n" + PANELS
    found = findings(tmp_path, body, "NUM001")
    assert len(found) == 1 and "says 20.12" in found[0].message and "Trip duration" in found[0].message


def test_a_whole_percentage_quotes_the_cited_table_where_the_sentence_names_the_row(tmp_path):
    table = r"""
\begin{table}\centering
\begin{tabular}{lcc}\toprule
Agent & Collisions & Return \\ \midrule
Nominal & 4\% & 12.5 \\
Robust & 0\% & 9.8 \\ \bottomrule
\end{tabular}
\caption{Obstacle avoidance.}\label{tab:obstacle}
\end{table}
"""
    body = "\\section{Results}\nIn \\Cref{tab:obstacle}, the nominal agent collides with obstacles in $5\\%$ of simulations.\n" + table
    found = findings(tmp_path, body, "NUM001")
    assert len(found) == 1 and "says 4" in found[0].message and "Nominal" in found[0].message
    assert findings(tmp_path, body.replace("$5\\%$", "$4\\%$"), "NUM001") == []


def test_the_abstract_restates_the_body_in_its_own_words(tmp_path):
    # "identify 55 protostellar outflows" and "we identify 45 outflows": one count, worded twice.
    body = (
        "\\begin{abstract}We identify 55 protostellar outflows in CO maps of the giant molecular cloud.\\end{abstract}\n"
        "\\section{Results}\nIn total, we identify 45 outflows with 67 individual lobes.\n"
    )
    found = findings(tmp_path, body, "NUM002")
    assert len(found) == 1 and "55" in found[0].message and "45" in found[0].message
    # Between two body statements the subjects must still name the same thing.
    assert findings(tmp_path, body.replace("\\begin{abstract}", "\\section{Intro}").replace("\\end{abstract}", ""), "NUM002") == []


def test_a_result_stated_as_a_fall_restates_a_relative_change(tmp_path):
    # "decreases … by 32%" in the abstract, "costs … 22% lower than the control" in the body.
    body = (
        "\\begin{abstract}Commitment decreases the financial cost of pawn loans by 32\\% inclusive of fees.\\end{abstract}\n"
        "\\section{Results}\nBorrowers in the forced arm pay financial costs inclusive of fees that are 22\\% lower than the control.\n"
    )
    found = findings(tmp_path, body, "NUM002")
    assert len(found) == 1 and "32%" in found[0].message and "22%" in found[0].message


def test_a_whole_number_is_held_by_a_table_only_as_written(tmp_path):
    # A cell of 79.6 rounds to 80 but does not state "80% information preservation": the abstract's 80 is compared.
    table = TABLE.replace("38.66", "79.6")
    body = (
        "\\begin{abstract}Value profiles compress the information ($>$80\\% information preservation).\\end{abstract}\n"
        "\\section{Results}\nValue profiles compress the information, preserving $>$70\\% of usable information.\n" + table
    )
    found = findings(tmp_path, body, "NUM002")
    assert len(found) == 1 and "80%" in found[0].message and "70%" in found[0].message


def test_two_values_one_sentence_states_side_by_side_are_two_quantities(tmp_path):
    body = (
        "\\section{Method}\nWe record the iterations achieving 80\\% and 90\\% of the maximum F1-measure value.\n\n"
        "\\section{Results}\nThe iteration achieving 90\\% of the maximum F1-measure value contains 236 comments.\n"
    )
    assert findings(tmp_path, body, "NUM002") == []


# Issue 19's recall shapes: slips in sentences that cite a table, and abstract numbers the body never writes.

R2_TABLE = r"""
\begin{table}\centering
\begin{tabular}{lccc}\toprule
 & Model 1 & Model 2 & Model 3 \\ \midrule
Median income & 0.012 & 0.031 & 0.027 \\
R2 Marg. & 0.201 & 0.214 & 0.200 \\ \bottomrule
\end{tabular}
\caption{Fixed-effect models.}\label{tab:models}
\end{table}
"""
OTHER_TABLE = r"""
\begin{table}\centering
\begin{tabular}{lc}\toprule
Group & Share \\ \midrule
Received & 0.301 \\ \bottomrule
\end{tabular}
\caption{Shares.}\label{tab:shares}
\end{table}
"""


def test_a_number_held_by_an_uncited_table_does_not_hide_a_slip_in_the_cited_one(tmp_path):
    # "r^2" names the row "R2 Marg."; 0.301 is in another table the sentence neither cites nor names;
    # "about 20%" does not restate the cell 0.201, which it rounds to fewer figures.
    sentence = "Model 1 of Table~\\ref{tab:models} explains about 20\\% of the variation, with an $r^2$ of 0.301.\n"
    found = findings(tmp_path, "\\section{Results}\n" + sentence + R2_TABLE + OTHER_TABLE, "NUM001")
    assert [f.message for f in found] == ["text says 0.301, Table tab:models (row R2 Marg., column Model 1) says 0.201"]
    assert found[0].evidence.kind.endswith("an uncited table holds the number") and found[0].severity.value == "information"
    # Citing the other table too makes its cell a quote.
    cited_both = sentence.replace("Table~\\ref{tab:models}", "Tables~\\ref{tab:models} and~\\ref{tab:shares}")
    assert findings(tmp_path, "\\section{Results}\n" + cited_both + R2_TABLE + OTHER_TABLE, "NUM001") == []


def test_cells_named_alike_in_two_tables_resolve_to_the_table_the_paragraph_cites(tmp_path):
    def errors(label: str, mae: str) -> str:
        return (
            "\\begin{table}\\centering\\begin{tabular}{lc}\\toprule\n & Error (eV) TDDFT \\\\ \\midrule\n"
            f"MAE & {mae} \\\\ \\bottomrule\n\\end{{tabular}}\\caption{{Errors.}}\\label{{{label}}}\\end{{table}}\n"
        )

    body = (
        "\\section{Results}\nTable~\\ref{tab:first} reports the first-row excitations.\n"
        "Compared to experiment, TDDFT produces a mean absolute error of 21.6 eV.\n"
    )
    found = findings(tmp_path, body + errors("tab:first", "11.6") + errors("tab:second", "31.6"), "NUM001")
    # "Mean absolute error" names the metric, not an average, and the paragraph cites the first table.
    assert len(found) == 1 and "tab:first" in found[0].message and "says 11.6" in found[0].message


def test_a_percentage_restating_a_fraction_cell_is_compared_with_not_copied(tmp_path):
    table = (
        "\\begin{table}\\centering\\begin{tabular}{lcc}\\toprule\n & Intron recall & Isoform recall \\\\ \\midrule\n"
        "CAT & 0.912 & 0.752 \\\\ \\bottomrule\n\\end{tabular}\\caption{Validation.}\\label{tab:validation}\\end{table}\n"
    )
    body = "\\section{Results}\n71.2\\% of CAT introns and 75.2\\% of CAT isoforms match GENCODE (Table~\\ref{tab:validation}).\n"
    found = findings(tmp_path, body + table, "NUM001")
    assert len(found) == 1 and "says 0.912" in found[0].message


def test_an_abstract_count_the_body_never_writes_needs_no_shared_names(tmp_path):
    body = (
        "\\begin{abstract}The project determined all edges of the implication graph between the $5694$ simplest "
        "equational laws on magmas, validated in Lean.\\end{abstract}\n"
        "\\section{Introduction}\nThe project completely determined the implications between a test set of "
        "4694 equational laws, as of April.\n"
    )
    found = findings(tmp_path, body, "NUM002")
    assert [(f.range.start.line, f.related[0].range.start.line) for f in found] == [(4, 2)]
    assert found[0].evidence.kind == "abstract restates, same subject; the body's prose never writes the abstract's value"
    # When the body also writes the abstract's value, the two sentences' names (April) must agree again.
    also = body + "\n\\section{Appendix}\nWe list 5694 laws in the appendix.\n"
    assert findings(tmp_path, also, "NUM002") == []


def test_a_sample_size_in_the_abstract_is_compared_as_a_count(tmp_path):
    body = (
        "\\begin{abstract}The survey included 2659 participants from April to August 2020 across the Netherlands.\\end{abstract}\n"
        "\\section{Results}\nIn the first series, the survey included 1659 participants who reported their daily contacts.\n"
    )
    found = findings(tmp_path, body, "NUM002")
    assert len(found) == 1 and "2659" in found[0].message and "1659" in found[0].message


def _table(label: str, header: str, *rows: str) -> str:
    return (
        f"\\begin{{table}}\\centering\\begin{{tabular}}{{l{'c' * header.count('&')}}}\\toprule\n{header} \\\\ \\midrule\n"
        + " \\\\\n".join(rows)
        + f" \\\\ \\bottomrule\n\\end{{tabular}}\\caption{{Results.}}\\label{{{label}}}\\end{{table}}\n"
    )


def test_on_average_speaks_of_its_own_clause(tmp_path):
    table = _table("tab:obstacle", "Agent & failures", "Oracle & 0\\%", "Nominal & 4\\%", "DQN & 6\\%")
    sentence = (
        "We show in Table~\\ref{tab:obstacle} that the robust agent performs worse than the nominal agent on average, "
        "but the nominal agent collides with obstacles in 5\\% of simulations.\n"
    )
    found = findings(tmp_path, "\\section{Results}\n" + sentence + table, "NUM001")
    assert len(found) == 1 and "says 4%" in found[0].message
    # In the number's own clause, "on average" still asks for an Average row.
    same_clause = sentence.replace("collides with obstacles in 5\\%", "collides on average in 5\\%")
    assert findings(tmp_path, "\\section{Results}\n" + same_clause + table, "NUM001") == []


def test_a_spread_column_is_quoted_only_by_a_sentence_naming_a_spread(tmp_path):
    table = _table("tab:desc", "Variable & Mean & SD", "Sought Info & 0.41 & 0.50", "Age & 0.18 & 0.27")
    sentence = "Of the sample, 51\\% sought information online (Table~\\ref{tab:desc}).\n"
    found = findings(tmp_path, "\\section{Results}\n" + sentence + table, "NUM001")
    assert len(found) == 1 and "column Mean" in found[0].message and "says 0.41" in found[0].message


def test_equally_named_cells_resolve_to_the_row_named_last_or_to_ours(tmp_path):
    ages = _table("tab:ages", "Fossil & phylo age", "Spheniscus muizoni & 5.2", "Madrynornis mirandus & 6.7")
    listed = "The discrepancy is moderate (Table~\\ref{tab:ages}), with M. mirandus: 6.7 Myr vs 10 Myr and S. muizoni: 6.2 vs 9.1.\n"
    found = findings(tmp_path, "\\section{Results}\n" + listed + ages, "NUM001")
    assert [f.message for f in found] == ["text says 6.2, Table tab:ages (row Spheniscus muizoni, column phylo age) says 5.2"]
    depth = _table("tab:depth", "Method & Sqr.Rel", "Gan et al. & 0.666", "Ours BTS & 0.166")
    ours = "Our pretraining improves all metrics (0.266 vs 0.245 Sqr.Rel, Table~\\ref{tab:depth}).\n"
    found = findings(tmp_path, "\\section{Results}\n" + ours + depth, "NUM001")
    assert len(found) == 1 and "row Ours BTS" in found[0].message


def test_a_value_written_with_its_spread_quotes_a_cell_with_one(tmp_path):
    table = _table("tab:recogs", "Split & Semantic Exact Match", "obj-pp-to-subj-pp (N=20) & 19.7\\% +/- 6.1\\%")
    sentence = (
        "We measured obj-pp-to-subj-pp as 29.7\\% +/- 6.1\\% Semantic Exact Match (sample mean +/- std) "
        "with n=20 (Table~\\ref{tab:recogs}).\n"
    )
    found = findings(tmp_path, "\\section{Results}\n" + sentence + table, "NUM001")
    # Neither "mean" nor "n=20", which 19.7 rounds to, hides the cell.
    assert len(found) == 1 and "text says 29.7%" in found[0].message


def test_a_fall_is_read_from_the_verb_governing_the_number_not_the_next_phrase(tmp_path):
    body = (
        "\\begin{abstract}Commitment decreases the financial cost of pawn loans by 32\\% inclusive of fees, "
        "increases the likelihood of recovering the pawn by 15\\%.\\end{abstract}\n"
        "\\section{Results}\nBorrowers in the forced arm pay financing costs inclusive of fees that are 22\\% lower than the control.\n"
    )
    # The body's 22% is a table's; a cell that happens to round to 32 does not make the abstract a quote of it
    # when no prose of the body writes 32: the abstract's value is reported.
    table = _table("tab:arms", "Arm & Cost & Share", "Forced & 22 & 32")
    found = findings(tmp_path, body + table, "NUM002")
    assert len(found) == 1 and "32%" in found[0].message and "22%" in found[0].message
    assert found[0].range.start.line == 2
    assert found[0].evidence.kind == "abstract restates, same subject; the body's prose never writes the abstract's value"


def test_a_rounding_by_several_places_quotes_a_cell_when_both_keep_three_figures(tmp_path):
    table = _table("tab:data", "Dataset & Mean and Standard Deviation", "AFL & 95.3784±27.8993", "Halo & 42.7±3.1")
    sentence = "The mean score for the AFL data is 75.4 (Table~\\ref{tab:data}).\n"
    found = findings(tmp_path, "\\section{Results}\n" + sentence + table, "NUM001")
    assert len(found) == 1 and "says 95.3784" in found[0].message
    # Two figures rounded from four are one digit from too many values: 0.2 is no quote of 0.1874.
    table = _table("tab:data", "Dataset & Mean", "AFL & 0.1874")
    assert (
        findings(tmp_path, "\\section{Results}\nThe mean score for the AFL data is 0.4 (Table~\\ref{tab:data}).\n" + table, "NUM001") == []
    )


def test_a_number_with_trailing_zero_is_held_only_by_a_cell_written_that_short(tmp_path):
    from auditex.analyzers.quantities import CellIndex, agreeing_spellings, exact_spellings, rounded_spellings

    index: CellIndex[str] = CellIndex()
    for name, value, decimals in (("written 0.7", 0.7, 1), ("0.69", 0.69, 2), ("0.704", 0.704, 3)):
        index.add(name, rounded_spellings(value, decimals), exact_spellings(value, decimals))
    # "0.70" is the cell written 0.7 and the cell 0.704 rounded to two places, not 0.69 rounded to one.
    assert sorted(index.agreeing(agreeing_spellings(0.70, 2))) == ["0.704", "written 0.7"]
    # "0.7" is any cell that rounds to it.
    assert sorted(index.agreeing(agreeing_spellings(0.7, 1))) == ["0.69", "0.704", "written 0.7"]


STALE_TABLE = r"""
\begin{table}\centering
\begin{tabular}{lcc}\toprule
Method & AlpacaEval & MT-Bench \\ \midrule
Baseline & 30.12 & 6.10 \\
Ours &
% 41.27 &
38.66 & 7.25 \\ \bottomrule
\end{tabular}
\caption{Main results.}\label{tab:main}
\end{table}
"""


def test_prose_number_the_table_holds_only_in_a_comment_is_stale(tmp_path):
    body = "\\section{Results}\nOurs improves over the baseline, reaching 41.27 (Table~\\ref{tab:main}).\n" + STALE_TABLE
    found = findings(tmp_path, body, "NUM001")
    assert len(found) == 1
    assert "41.27" in found[0].message and "commented-out" in found[0].message
    assert found[0].evidence.kind == "strong: the table's commented-out source holds the text's value"
    assert found[0].related[0].range.start.line == found[0].range.start.line + 7


def test_one_digit_slip_whose_old_value_is_commented_out_is_stale(tmp_path):
    table = STALE_TABLE.replace("% 41.27", "% 38.68")
    body = "\\section{Results}\nOurs reaches 38.68 on AlpacaEval (Table~\\ref{tab:main}).\n" + table
    found = findings(tmp_path, body, "NUM001")
    assert len(found) == 1 and "38.66" in found[0].message
    assert found[0].evidence.kind == "strong: the table's commented-out source holds the text's value"


def test_commented_value_of_an_uncited_table_or_a_live_cell_is_no_stale_quote(tmp_path):
    uncited = "\\section{Results}\nOn our private set it scores 41.27.\n" + STALE_TABLE
    live = "\\section{Results}\nOurs reaches 30.12 (Table~\\ref{tab:main}).\n" + STALE_TABLE.replace("% 41.27", "% 30.12")
    assert findings(tmp_path, uncited, "NUM001") == []
    assert findings(tmp_path, live, "NUM001") == []


def _results_table(label: str, rows: list[tuple[str, str, str]]) -> str:
    body = "".join(f"{name} & {first} & {second} \\\\\n" for name, first, second in rows)
    return (
        "\\begin{table}\\centering\n\\begin{tabular}{lcc}\\toprule\nMethod & CIFAR-10 & ImageNet \\\\ \\midrule\n"
        + body
        + f"\\bottomrule\n\\end{{tabular}}\n\\caption{{Results.}}\\label{{{label}}}\n\\end{{table}}\n"
    )


MAIN_ROWS = [("ResNet", "93.12", "76.13"), ("ViT", "94.35", "78.41"), ("Ours", "95.20", "80.02")]


def test_result_two_tables_repeat_with_two_values(tmp_path):
    ablation = [("ResNet", "93.12", "76.13"), ("Ours", "95.20", "80.27"), ("Ours w/o aug", "94.01", "78.80")]
    body = (
        "\\section{Results}\n" + _results_table("tab:main", MAIN_ROWS) + "\\section{Ablation}\n" + _results_table("tab:ablation", ablation)
    )
    found = findings(tmp_path, body, "NUM002")
    assert len(found) == 1
    assert "80.27" in found[0].message and "80.02" in found[0].message
    assert found[0].evidence.kind == "tables: same row and column"


def test_tables_of_two_settings_under_the_same_headers_are_left_alone(tmp_path):
    other = [("ResNet", "91.02", "70.13"), ("ViT", "92.15", "72.41"), ("Ours", "95.20", "74.02")]
    body = "\\section{Results}\n" + _results_table("tab:main", MAIN_ROWS) + "\\section{Few-shot}\n" + _results_table("tab:few", other)
    assert findings(tmp_path, body, "NUM002") == []


def test_a_sample_in_millions_restated_with_another_value(tmp_path):
    body = (
        "\\section{Introduction}\nWe study 3.2 million household-year observations from the national tax register of Denmark.\n\n"
        "\\section{Data}\nThe national tax register of Denmark gives 8.2 million household-year observations from 1990 to 2015.\n"
    )
    found = findings(tmp_path, body, "NUM002")
    assert len(found) == 1 and "3.2" in found[0].message + found[0].related[0].message and "8.2" in found[0].message


def test_samples_in_millions_of_other_things_are_two_quantities(tmp_path):
    body = (
        "\\section{Introduction}\nWe study 3.2 million household-year observations from the national tax register of Denmark.\n\n"
        "\\section{Data}\nThe national tax register of Denmark also lists 8.2 million firms over the same period.\n"
    )
    assert findings(tmp_path, body, "NUM002") == []


def test_cut_quotes_are_reported_with_the_rounded_value_as_their_fix(tmp_path):
    body = "\\section{Results}\nOurs reaches 38.6 on AlpacaEval and 7.2 on MT-Bench (Table~\\ref{tab:main}).\n" + TABLE.replace(
        "7.25", "7.28"
    )
    found = findings(tmp_path, body, "NUM010")
    assert [finding.fixes[0].edits[0].new_text for finding in found] == ["38.7", "7.3"]
    assert all(not finding.fixes[0].safe for finding in found)


def test_swapped_values_are_reported_once_with_a_fix_swapping_them(tmp_path):
    body = "\\section{Results}\nOurs reaches 7.25 and 38.66 on AlpacaEval and MT-Bench, respectively (Table~\\ref{tab:main}).\n" + TABLE
    found = findings(tmp_path, body, "NUM011")
    assert len(found) == 1 and "swapped" in found[0].message
    assert [edit.new_text for edit in found[0].fixes[0].edits] == ["38.66", "7.25"]


def test_abstract_result_is_the_own_methods_cell_under_the_column_it_names(tmp_path):
    # The abstract names no row: its result is the paper's own method's ("Ours") under the column its sentence names.
    abstract = "\\begin{abstract}Our model reaches a win rate of 36.20 on AlpacaEval.\\end{abstract}\n"
    found = findings(tmp_path, abstract + "\\section{Results}\nTable~\\ref{tab:main} gives the scores.\n" + TABLE, "NUM014")
    assert [(f.range.start.line, f.evidence.kind) for f in found] == [
        (2, "weak: abstract, the paper's own method's row, column named in the number's sentence, another value")
    ]
    assert "36.20" in found[0].message and "38.66" in found[0].message
    # The same sentence in the body names no row: the body's results are not all the own method's.
    body = abstract.replace("\\begin{abstract}", "\\section{Summary}\n").replace("\\end{abstract}", "")
    assert findings(tmp_path, body + TABLE, "NUM014") == []
    # A value any cell holds (here the baseline's), or two values of the own method's row and column, tie no cell.
    assert findings(tmp_path, abstract.replace("36.20", "30.12") + TABLE, "NUM014") == []
    ablation = TABLE.replace("tab:main", "tab:ablation").replace("38.66", "35.10")
    assert findings(tmp_path, abstract + TABLE + ablation, "NUM014") == []
