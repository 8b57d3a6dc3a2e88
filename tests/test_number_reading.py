"""How the number reader (latex/numbers.py) reads the ways papers of every field write numbers: the misreads a
seeded sample of 320 prose numbers from 40 corpus papers showed, each written the way the world writes it."""

import pytest

from auditex.latex.model import BlockKind
from auditex.latex.numbers import Role, find_numbers
from auditex.latex.parse import parse_chunk
from auditex.latex.sentences import sentence_spans


def read(latex: str) -> list[tuple[str, float, str, Role]]:
    plain = parse_chunk(latex).blocks[0].plain.text
    return [(mention.text, mention.value, mention.unit, mention.role) for mention in find_numbers(plain)]


def values(latex: str) -> list[float]:
    return [value for _, value, _, _ in read(latex)]


@pytest.mark.parametrize(
    ("latex", "read_values"),
    [
        # A dash inside an identifier is no range: its pieces are no quantities.
        (r"Funded by grant FA8750-14-2-0009 and run on a Xeon E5-2623 with 16 cores.", [16]),
        (r"We fitted the CA184-024 trial data to 12 patients.", [12]),
        (r"The ethics approval of 2020-03-15 covers 40 sites.", [2020, 40]),
        (r"Grant RGPIN-2021-02618 funded 40 sites.", [40]),
        (r"We report P@10 and Recall@20 of 0.41.", [0.41]),  # a metric's cut-off
        (r"Scores ranged 15-20 points.", [15, 20]),  # a range still
        # An ordinal or a dimension is no quantity.
        (r"Winsorised at the 90th percentile, the 3rd run and the $5^{th}$ one reached 0.81.", [0.81]),
        (r"We project the 3D scene to 2D images in 12 views.", [12]),
        # A named item ("Experiment 2", "Model 1") is a name, not a quantity.
        (r"In Experiment 2, Model 3 reached 0.91 and Study 1 had 30 children.", [0.91, 30]),
        # So is a cross-reference typed in lower case, but not a count after an ordinary word.
        (r"As figure 3 and table 2 show (see p. 66), in this study 120 children took part.", [120]),
        (r"Tables 1 and 2 and Experiments 1, 2, and 3a show it for 40 runs.", [40]),
        (r"Figure 3 and 20 participants agree.", [20]),  # one name, then a count
        # A list's marker counts nothing; a count in parentheses after a noun does, as does a tuple's end.
        (r"(1) We disable the map and (2) we remove 12 bounds; 4) assign raters.", [12]),
        (r"Women (45) and men (55) took part; $(3, 5)$ holds.", [45, 55, 3, 5]),
        # A day of a date is no quantity; its year is a year.
        (r"Data span August 2, 2012 to 15 March 2013 and 74 branches.", [2012, 2013, 74]),
        # A fraction prints as one ("\frac{1}{4}" was "14"), and neither its numerator nor its denominator is a
        # quantity alone ("3/4 of the data" states no 3).
        (r"A ratio of $\frac{1}{4}$ and $\tfrac12$ of 30 runs.", [30]),
        (r"We trained on 3/4 of the data, in 12/40 cases (30\%) and at 74.0\%/82.1\% exact/fuzzy.", [30, 74.0, 82.1]),
        # A version names a release, it measures nothing.
        (r"We used version 2.1 of the tool (v. 1.2 of its parser, release 1.5) on 300 images.", [300]),
        # Scientific notation written with a caret or with the times of code.
        (r"Matrices of $4e^6 \times 4e^6$ entries.", [4e6, 4e6]),
        (r"A tumour mass of $65 * 10^8$ cells.", [65e8]),
        # A thin space between digit groups is one number; the units package's value is printed before its unit.
        (r"Minimap2 predicted 59\,918 introns from $2\,3$ runs.", [59918, 2, 3]),
        (r"A flux of \unit[1.1\times 10^{-2}]{s\textsuperscript{-1}} and a gain of \unit[28]{dB}.", [1.1e-2, 28]),
    ],
)
def test_the_reader_reads_the_quantities_a_reader_sees(latex, read_values):
    assert values(latex) == pytest.approx(read_values)


def test_set_up_and_front_matter_marks_print_no_numbers():
    preamble = (
        r"\definecolor{link}{RGB}{74, 102, 146} \colorlet{dark}{rust!85!black} \hypersetup{linkcolor=red!75!black}"
        r" \lstset{numbersep=5pt} \newcolumntype{d}[1]{D{.}{.}{#1}} \captionsetup{belowskip=10pt}"
        r" \author[1]{Devin Incerti} \affil[2]{Genentech} ran 3 runs\footnotemark[2]."
    )
    assert values(preamble) == [3]


def test_a_squared_charge_after_a_caret_is_no_scientific_notation():
    assert values(r"The conductance is $2e^2/h$ here.") == [2]


def test_the_factors_of_a_product_are_listed_and_a_multiplier_is_one_quantity():
    assert [(text, role) for text, _, _, role in read(r"On $256\times 256$ images, 2 × 4 layers run 8× faster than $3\times10^{-4}$.")] == [
        ("256", Role.LISTED),
        ("256", Role.LISTED),
        ("2", Role.LISTED),
        ("4", Role.LISTED),
        ("8×", Role.VALUE),
        ("3×10^-4", Role.VALUE),
    ]


def test_percentage_points_are_points_of_a_percentage():
    [(_, value, unit, _)] = read(r"Default falls by 6.6 percentage points.")
    assert (value, unit) == (6.6, "pp")


@pytest.mark.parametrize(
    ("latex", "role"),
    [
        (r"The loss at step $t+1$ is lower.", Role.VALUE),  # a sum's plus, not a change
        (r"The index runs to $N + 1$ here.", Role.VALUE),
        (r"Accuracy improved (+3.2) on the test set.", Role.CHANGE),  # a sign
        (r"We drop scores larger than 5 here.", Role.BOUND),
        (r"Scores are averaged over 3 runs.", Role.COUNT),  # the runs averaged, no bound
        (r"Minimap2 is over 40 times faster.", Role.BOUND),
        (r"Sources with a flux $\kappa \gtrsim 10^{-3}$ suffice.", Role.BOUND),
        (r"Outliers smaller than 0.3 are dropped.", Role.BOUND),
        (r"We downsample to 50 pixels each.", Role.COUNT),  # no prediction interval ("PI")
        (r"The paper has 12 citations.", Role.COUNT),  # nor a confidence interval ("CI")
        (r"Prediction 2 was confirmed, and 2 was the mode.", Role.VALUE),  # "was" counts nothing
        (r"Of 67 lobes we classify 38 as definite.", Role.VALUE),
        (r"The uncertainties $\{\sigma_n\}_{n=1}^N$ are known.", Role.SETTING),  # an index, no sample size
        (r"We recruited $n = 40$ adults.", Role.SAMPLE_SIZE),
        (r"Each video has $T=100, D=4$ digits.", Role.SETTING),  # a dimension, no effect size
        (r"The effect was large ($d = 0.42$).", Role.COEFFICIENT),
    ],
)
def test_the_role_of_the_last_number_is_read_from_its_words(latex, role):
    assert read(latex)[-1][3] is role


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        ("Earnings are 2.14 SGD (s.e. 0.5) higher. Next.", 2),
        ("The mean was 3.2 (s.d. 1.1) across runs. Next.", 2),
        ("The site lies ca. 50 km away. Next.", 2),
        ("See p. 66 and Exp. 2 for details. Next.", 2),
        ("It holds with probability p. The next one.", 2),  # a symbol, not a page
        ("We stop at x = 5. Then y grows.", 2),
    ],
)
def test_a_dotted_abbreviation_ends_no_sentence(text, sentences):
    assert len(sentence_spans(text)) == sentences


def test_a_picture_drawn_in_its_own_file_is_a_figure_not_prose():
    blocks = parse_chunk(
        "\\begin{tikzpicture}[scale=4/16]\n  \\filldraw (0, -2) rectangle (1, -3) node {see Table~\\ref{tab:a}};\n\\end{tikzpicture}\n"
    ).blocks
    assert [block.kind for block in blocks] == [BlockKind.FIGURE]
