"""CNT001: stated counts against the enumerations they announce."""

from pathlib import Path

import pytest
from helpers import rule_findings

# The rules' logic, apart from the measured-precision gate (tests of the gate: test_precision.py).
pytestmark = pytest.mark.usefixtures("every_class_measured_precise")


def findings(tmp_path: Path, body: str) -> list:
    return rule_findings(tmp_path, "\\documentclass{article}\n\\begin{document}\n" + body + "\n\\end{document}\n", "CNT001")


def test_inline_enumeration_shorter_than_its_count(tmp_path):
    found = findings(tmp_path, "We evaluate on five datasets: CIFAR-10, CIFAR-100, SVHN and STL-10.")
    assert len(found) == 1 and "5" in found[0].message and "4 follow" in found[0].message
    assert found[0].fixes[0].edits[0].new_text == "four"


def test_list_environment_and_markers_are_counted(tmp_path):
    listing = "The protocol has three steps:\n\\begin{itemize}\n\\item one\n\\item two\n\\end{itemize}\n"
    assert len(findings(tmp_path, listing)) == 1
    markers = "There are two reasons: (1) speed; (2) memory; (3) cost.\n"
    assert len(findings(tmp_path, markers)) == 1


def test_matching_and_open_enumerations_are_fine(tmp_path):
    body = (
        "We evaluate on four datasets: CIFAR-10, CIFAR-100, SVHN, and STL-10.\n\n"
        "We use three baselines: e.g., ResNet and ViT.\n\n"
        "The protocol has two steps:\n\\begin{enumerate}\n\\item one\n\\begin{itemize}\\item a \\item b\\end{itemize}\n\\item two\n\\end{enumerate}\n\n"
        "% We evaluate on five datasets: A, B and C.\n"
    )
    assert findings(tmp_path, body) == []


def test_ordinal_and_parenthesised_enumerations_are_counted(tmp_path):
    found = rule_findings(
        tmp_path,
        "\\documentclass{article}\n\\begin{document}\n"
        "We make four contributions. First, we build A. Second, we test B. Third, we release C.\n\n"
        "We use four datasets (MNIST, SVHN, and CIFAR-10) here.\n\n"
        "Our method has two stages. First, it encodes. Second, it decodes.\n\n"
        "We use three datasets (MNIST, SVHN, and CIFAR-10) here.\n\n"
        "The pipeline has three steps. First, we parse. Second, we check. Finally, we report.\n\n"
        "We consider five indicators (including the ones above).\n\\end{document}\n",
        "CNT001",
    )
    found = sorted((f.range.start.line, f.message) for f in found)
    assert [line for line, _ in found] == [2, 4]
    assert "but 3 follow" in found[0][1] and "but 3 follow" in found[1][1]


def test_emphasised_and_joined_ordinals_are_counted(tmp_path):
    body = (
        "We make three observations:\n{\\em First}, A holds.\n{\\em Second}, B holds.\n\n"
        "Integration requires three steps.\nFirst, we translate.\nAnd second, we reconstruct.\n\n"
        "We prove it in three steps.\nThe first step treats points.\nFor the second step we take any point.\n\n"
        "We make two remarks:\n\\emph{First}, C.\n\\emph{Second}, D.\n"
    )
    found = findings(tmp_path, body)
    assert [f.range.start.line for f in found] == [2, 6, 10]
    assert all("but 2 follow" in f.message for f in found)


def test_ordinal_run_goes_on_in_a_later_paragraph_of_the_same_section(tmp_path):
    body = (
        "It is useful to have three facts in mind.\nFirst, levels are upward-closed.\n\n"
        "\\begin{lem}A lemma.\\end{lem}\n\nSecond, the stratification is not degenerate.\n"
    )
    found = findings(tmp_path, body)
    assert len(found) == 1 and "but 2 follow" in found[0].message
    assert findings(tmp_path, body.replace("three facts", "two facts")) == []


def test_ordinal_run_stops_at_a_new_section_and_at_the_stated_count(tmp_path):
    crossing = (
        "It is useful to have two facts in mind.\nFirst, levels are upward-closed.\n\n\\section{Next}\nSecond, something unrelated.\n"
    )
    assert findings(tmp_path, crossing) == []  # one ordinal in reach: not countable
    enough = "Our method has two stages. First, it encodes. Second, it decodes.\n\nThird, an unrelated paragraph starts with an ordinal.\n"
    assert findings(tmp_path, enough) == []


def warnings(tmp_path: Path, body: str) -> list:
    """CNT001 findings confident enough to warn (the rest are information)."""
    return [f for f in findings(tmp_path, body) if f.severity.value == "warning"]


def test_an_item_that_carries_a_count_adds_it(tmp_path):
    body = (
        "We compare three conditions: two retrieval approaches and a plain prompt.\n\n"
        "In total, it distinguishes 12 markers: 6 on the template, 2 on the hoop, 3 on stickers, and 1 on the sensor.\n"
    )
    assert findings(tmp_path, body) == []
    wrong = findings(tmp_path, "We compare four conditions: two retrieval approaches and a plain prompt.\n")
    assert len(wrong) == 1 and "but 3 follow" in wrong[0].message


def test_a_number_inside_a_name_is_not_a_count(tmp_path):
    body = (
        "We report the Spin-0 estimators (A, B, and C).\n\n"
        "We fine-tune GPT-4 models: small, medium, and large.\n\n"
        "Consumers have access to palette~2 technologies, i.e., storage, wind and solar.\n\n"
        "Results for the Llama 2 models (7B, 13B, and 70B) follow.\n"
    )
    assert findings(tmp_path, body) == []
    # The true positive: a count of depths that lists five.
    depths = findings(tmp_path, "Samples were taken at six depths (0, 50, 150, 300, and 500 m).\n")
    assert len(depths) == 1 and "but 5 follow" in depths[0].message and depths[0].severity.value == "warning"


def test_finally_after_a_complete_ordinal_run_wraps_up(tmp_path):
    body = (
        "The model is trained in two phases. In the first phase, we pretrain. In the second phase, "
        "we fine-tune. Finally, we evaluate on held-out data.\n\n"
        "It can be extended in at least three ways. First, to A. Second, to B. Third, to C. "
        "Finally, an adjacent question remains open.\n"
    )
    assert findings(tmp_path, body) == []
    short = findings(tmp_path, "The pipeline has four steps. First, we parse. Second, we check. Finally, we report.\n")
    assert len(short) == 1 and "but 3 follow" in short[0].message


def test_an_ordinal_run_picked_up_in_a_later_paragraph_only_informs(tmp_path):
    body = (
        "It is useful to have three facts in mind.\nFirst, levels are upward-closed.\n\n"
        "\\begin{lem}A lemma.\\end{lem}\n\nSecond, the stratification is not degenerate.\n"
    )
    found = findings(tmp_path, body)
    assert len(found) == 1 and found[0].severity.value == "information" and found[0].confidence < 0.7


def test_formulas_are_items_split_at_top_level_commas(tmp_path):
    body = (
        "The integral is small on each of four pieces: \\((-\\infty,-h]\\), \\((-h,h)\\), \\([h,t-h]\\), and \\((t-h,\\infty)\\).\n\n"
        "We compare four tests: $A,B,C$ test and the score test.\n\n"
        "We use three variables: $x_1, \\dots, x_n$ and $y$.\n"
    )
    assert findings(tmp_path, body) == []
    wrong = findings(tmp_path, "We compare five tests: $A,B,C$ test and the score test.\n")
    assert len(wrong) == 1 and "but 4 follow" in wrong[0].message


def test_and_inside_one_item_does_not_split_it(tmp_path):
    body = (
        "We train with just two classes (i.e., comments with and without technical debt).\n\n"
        "We study two effects: the gap between A and B, and the drift.\n\n"
        "We run two stages: pre- and post-training, and evaluation.\n"
    )
    assert findings(tmp_path, body) == []


def test_the_x_and_y_of_z_names_two_things(tmp_path):
    body = "We used four free parameters: the time of mid-transit, the radius ratio, and the slope and intercept of a linear trend.\n"
    assert findings(tmp_path, body) == []
    assert len(findings(tmp_path, body.replace("four", "five"))) == 1


def test_a_parenthesis_of_statistics_is_not_the_enumeration(tmp_path):
    body = (
        "Participants chose among the three answer options (agreement practical = 0.72\\%, "
        "agreement theoretical = 0.4\\%, disagreement = 98.9\\%, undecided = 0.1\\%).\n"
    )
    assert findings(tmp_path, body) == []


def test_markers_of_the_next_list_are_not_counted_into_this_one(tmp_path):
    body = (
        "We contribute in two new ways: (a) by a qualitative analysis and (b) by scoring manifestos. "
        "We answer three questions: (a) do norms change?; (b) does complexity predict violence?; and (c) does it last?\n"
    )
    assert findings(tmp_path, body) == []


def test_markers_followed_by_an_unmarked_last_item_only_inform(tmp_path):
    body = (
        "We compare the approaches under four metrics: (i) the height error, and the tracking error of the "
        "(ii) angular velocity and (iii) thrust of the commands, and the success rate.\n"
    )
    found = findings(tmp_path, body)
    assert len(found) == 1 and found[0].confidence < 0.7 and found[0].severity.value == "information"


def test_an_item_marked_as_an_extra_is_not_counted(tmp_path):
    body = (
        "We model and compare two procurement strategies:\n\\begin{itemize}\n\\item annual matching;\n"
        "\\item hourly matching;\n\\item For benchmarking, we also model a reference case.\n\\end{itemize}\n"
    )
    assert findings(tmp_path, body) == []
    three = body.replace("For benchmarking, we also model a", "a")
    assert len(warnings(tmp_path, three)) == 1


def test_a_list_that_goes_on_in_the_next_sentence_is_left_alone(tmp_path):
    body = (
        "We use three datasets: MNIST and SVHN. We also use CIFAR-10.\n\n"
        "We use three datasets: MNIST and SVHN. The third one is CIFAR-10.\n"
    )
    assert findings(tmp_path, body) == []
    assert len(warnings(tmp_path, "We use three datasets: MNIST and SVHN. Both are small.\n")) == 1


def test_a_list_that_may_name_something_else_only_informs(tmp_path):
    partitive = "Profiles help on three of the four large datasets (VP, OQA, and HK), but not on DICES.\n"
    assert findings(tmp_path, partitive) == []
    owner = "Conditions are varied for the tasks with two nouns (\\emph{NounPP}, \\emph{Gender}, \\emph{Successive} and \\emph{Nested}).\n"
    found = findings(tmp_path, owner)
    assert len(found) == 1 and found[0].severity.value == "information"


def test_confidence_follows_the_evidence(tmp_path):
    listing = "The protocol has three steps:\n\\begin{itemize}\n\\item one\n\\item two\n\\end{itemize}\n"
    inline = "We evaluate on five datasets: CIFAR-10, CIFAR-100, SVHN and STL-10.\n"
    ordinals = "Our method has three stages. First, it encodes. Second, it decodes.\n"
    many = "We evaluate on seven datasets: CIFAR-10, CIFAR-100, SVHN and STL-10.\n"
    caption = (
        "\\begin{table}\\caption{Results on five datasets: CIFAR-10, CIFAR-100, SVHN and STL-10.}"
        "\\begin{tabular}{c}a\\end{tabular}\\end{table}\n"
    )
    confidence = {
        name: findings(tmp_path, body)[0].confidence
        for name, body in [("listing", listing), ("inline", inline), ("ordinals", ordinals), ("many", many), ("caption", caption)]
    }
    assert confidence["listing"] > confidence["inline"] > confidence["ordinals"] >= 0.7
    assert confidence["many"] < 0.7 and confidence["caption"] < confidence["inline"]


def test_ordinals_right_after_the_colon_and_across_a_comment_line(tmp_path):
    body = (
        "Stickers were developed for three reasons: First, the clearance is low.\n"
        "%A commented-out line.\n"
        "Second, we wanted to save drawing.\n"
    )
    found = findings(tmp_path, body)
    assert len(found) == 1 and "but 2 follow" in found[0].message and found[0].severity.value == "warning"
    assert findings(tmp_path, body.replace("three reasons", "two reasons")) == []


def test_a_parenthesis_of_statistics_shares_examples_or_an_aside_is_not_the_list(tmp_path):
    body = (
        "Diversity differed from normal colons in 6 of 7 studies (PERMANOVA; P-value \\textless{} 0.05).\n\n"
        "The most popular 8 languages (i.e., ~0.1\\% of 7,100) are spoken by half of the world.\n\n"
        "Priming compares two conditions (e.g., unrelated: horse-DOCTOR; related: nurse-DOCTOR, and more).\n\n"
        "We think that dogs have four legs (regrettably, all do not) but this is not the point.\n"
    )
    assert findings(tmp_path, body) == []
    assert len(findings(tmp_path, "We compare four systems (Alpha, Beta, and Gamma).\n")) == 1


def test_half_parenthesised_markers_and_lists_that_go_on_are_read(tmp_path):
    body = (
        "The suite serves three purposes: 1) diagnostics of the model;\n2) continuous integration; and 3) contributions.\n\n"
        "The data provide four ratings: the expert ratings, XGB-q and XGB scores, as well as the CNN score.\n\n"
        "The images come from three fields: Bonn and Stuttgart in Germany, and Zurich in Switzerland.\n\n"
        "It has three digesters: a primary and secondary digester, where gas is produced, and a storage tank.\n"
    )
    assert findings(tmp_path, body) == []
    short = findings(tmp_path, "The suite serves four purposes: 1) diagnostics;\n2) integration; and 3) contributions.\n")
    assert len(short) == 1 and "but 3 follow" in short[0].message
