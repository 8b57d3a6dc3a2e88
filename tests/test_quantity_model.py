"""The quantity model: what each number in prose is (its role) and what it measures (its subject)."""

import pytest

from auditex.latex.numbers import Role, find_numbers


def roles(sentence: str) -> dict[str, Role]:
    return {mention.text: mention.role for mention in find_numbers(sentence)}


@pytest.mark.parametrize(
    ("sentence", "number", "role"),
    [
        ("Ours reaches 93.4 on AlpacaEval.", "93.4", Role.VALUE),
        ("We set the learning rate to 0.005.", "0.005", Role.SETTING),
        ("with $\\lambda = 0.01$ throughout", "0.01", Role.SETTING),
        ("We identified 57 studies.", "57", Role.COUNT),
        ("We recruited 120 participants.", "120", Role.SAMPLE_SIZE),
        ("(N = 118 after exclusion)", "118", Role.SAMPLE_SIZE),
        ("the 95% CI excludes zero", "95%", Role.INTERVAL_LEVEL),
        ("Cases rose (95\\%CrI: 2,230-2,700).", "2,230", Role.INTERVAL_BOUND),
        ("OR = 1.9, 95% CI = [2.091, 2.622]", "2.622", Role.INTERVAL_BOUND),
        ("the correction of cases (+65%) was large", "65%", Role.CHANGE),
        ("a decrease of the estimates by 15%", "15%", Role.CHANGE),
        # A change named after its size is a change too; a "loss" or a "growth rate" so named is a level.
        ("with 80.5% improvement from the previous best method", "80.5%", Role.CHANGE),
        ("led to a 3x reduction in memory usage", "3x", Role.CHANGE),
        ("outperforms on average by a 27% absolute increase", "27%", Role.CHANGE),
        ("it reaches a 2.31 loss on validation", "2.31", Role.VALUE),
        ("a 5% growth rate of the economy", "5%", Role.VALUE),
        ("accuracy above 85% on every split", "85%", Role.BOUND),
        ("The survey ran in 2019.", "2019", Role.YEAR),
        ("t(28) = 2.20, p = .04", ".04", Role.P_VALUE),
        ("t(28) = 2.20, p = .04", "2.20", Role.STATISTIC),
        ("$\\chi^2(1, N = 3,479) = 3.67$", "3.67", Role.STATISTIC),
        ("The coefficient is −0.228 in the baseline.", "−0.228", Role.COEFFICIENT),
        ("an effect of d = 0.42 for older children", "0.42", Role.COEFFICIENT),
        ("hopelessness (M = 4.50, SD = 1.2)", "4.50", Role.VALUE),
        ("about 10% of the runs", "10%", Role.APPROXIMATE),
        ("with p in {0.05, 0.1, 0.2}", "0.1", Role.LISTED),
        ("between 2 and 5 seconds", "5", Role.RANGE),
        ("MAEs ranging from 0.7--1.7 eV", "1.7", Role.RANGE),
        ("in 15-20% of the cases", "20%", Role.RANGE),
        ("tracking up to approximately 256 individuals", "256", Role.BOUND),
        # The words before the first of two numbers joined by "and" or "or" say what both are.
        ("CoFie reduces the shape error by 48% and 56% on novel instances", "56%", Role.CHANGE),
        ("the same threshold when N = 19 and 49", "49", Role.SAMPLE_SIZE),
        ("with over 43,281 and 60,297 open-reading frames", "60,297", Role.BOUND),
        ("evaluations in upper-middle income countries (n=144 or 73%)", "73%", Role.VALUE),
        ("it improves by 5%, and 90% of the runs converge", "90%", Role.VALUE),
        # A thousands separator is no list's comma, and a list's "and" no unit.
        ("a total of 1,234,567 tokens", "1,234,567", Role.COUNT),
        ("widths of 0.4, 0.6, 0.8 and 1.0 mm", "1.0", Role.LISTED),
        ("both exceed 30 for all κ∈[20,120]", "20,120", Role.RANGE),
        ("scaling drawn from the range [90%, 110%] for flies", "110%", Role.RANGE),
        # A tie prints as a space: "Table~3" is a reference, "Period~1" no approximate value.
        ("the data from Periods~1 and 2", "1", Role.VALUE),
        ("the loss is ~3.2 on average", "3.2", Role.APPROXIMATE),
    ],
)
def test_each_role_is_read_from_the_words_around_the_number(sentence, number, role):
    assert roles(sentence)[number] is role


def test_references_are_no_quantities():
    assert roles("as Table 3 and Section 4.1 show, Eq. 2 holds") == {}
    assert roles("as Table~3 and Section~4.1 show, Eq.~2 holds") == {}


def test_a_citations_notes_and_a_ranges_second_label_are_no_quantities():
    cited = "as \\parencites[Chapter 5]{a}[p.~12]{b} and \\footcite[p. 7]{c} show, over \\crefrange{t:1}{t 3} 80% hold"
    assert [mention.text for mention in find_numbers(cited)] == ["80%"]


def test_after_a_slash_only_the_second_of_two_percentages_is_a_number():
    assert roles("two clusters keep most of it (60%/51% respectively)") == {"60%": Role.VALUE, "51%": Role.VALUE}
    assert "7" not in roles("a 24/7 procurement") and "3456260" not in roles("doi 10.1145/3447786.3456260")


def test_the_subject_is_what_the_clause_names():
    [mention] = find_numbers("Our method improves accuracy on ImageNet by 12.3%.")
    assert {"accuracy", "imagenet"} <= set(mention.subject)
    [transfers] = find_numbers("Transfers equal 3.0 percent of mean income.")
    [loss] = find_numbers("The loss amounts to 5.0 percent of mean income.")
    assert transfers.subject == ("transfers",) and loss.subject == ("loss",)  # "of mean income" is the unit's base, not the subject
    [counted] = find_numbers("We found 57 studies.")
    assert "studies" in counted.subject


def test_a_clause_that_names_nothing_has_no_subject():
    [mention] = find_numbers("In the robustness check it remains negative, at −0.222.")
    assert mention.subject == ()


def test_a_dash_after_a_letter_is_part_of_a_name_not_a_range():
    # "BERT-110", "COVID-19", "ResNet-50": the digits name a model or a disease, not a range's end.
    assert roles("BERT-110 and ResNet-50 beat COVID-19 baselines by 3-4 points") == {"3": Role.RANGE, "4 points": Role.RANGE}


def test_named_at_finds_words_numbered_names_and_column_references():
    from auditex.analyzers.quantities import column_word, named_at

    text = "Model 2 beats BERT (col. 3) on SST-2"
    assert named_at(text, {"bert"}) == [text.index("BERT")]
    assert named_at(text, {"model 2"}) == [0]
    assert named_at(text, {column_word(3)}) == [text.index("col.")]
    assert named_at(text, {"roberta"}) == []


def test_a_paragraph_typed_in_reads_its_numbers_as_a_fresh_read_does():
    # Each sentence's numbers are kept by the sentence: typing in one reads it alone, and the others' numbers,
    # placed from where their sentences now start, are those a read of the whole paragraph from scratch gives.
    from auditex.latex import numbers

    paragraph = "Ours reaches 48.6% on MMLU (Table 2). It improves accuracy by 3.1 points over 12 baselines. We ran 5 seeds."
    typed = paragraph.replace("Ours reaches", "Ours now reaches")
    find_numbers(paragraph)
    kept = find_numbers(typed)
    numbers.find_numbers.cache_clear()
    numbers._sentence_numbers.cache_clear()
    fresh = find_numbers(typed)
    assert [mention.value for mention in fresh] == [48.6, 3.1, 12, 5]  # "Table 2" names a table
    assert kept == fresh
    assert all(typed[mention.plain_start : mention.plain_end] == mention.text for mention in kept)


def test_a_percentage_spelled_out_is_a_whole_percentage():
    # A word number has no decimals: "three percent" is 3%, rounded to the whole percent, as "3%" is.
    [bound] = find_numbers("In no arm did more than three percent of individuals refuse loans.")
    assert (bound.text, bound.value, bound.decimals, bound.percent, bound.role) == ("three percent", 3.0, 0, True, Role.BOUND)
    spelled = {mention.text: mention.value for mention in find_numbers("Twenty-five per cent of firms and ninety nine \\% of workers.")}
    assert spelled == {"Twenty-five per cent": 25.0, "ninety nine \\%": 99.0}
    assert roles("with a three and a five percent increase") == {"five percent": Role.CHANGE}


def test_a_spelled_percentile_or_a_word_inside_another_is_no_percentage():
    assert roles("The top one percentile of rates is dropped; someone percent-encodes it.") == {}


def test_spelled_percentages_take_their_place_among_the_numbers_of_their_sentence():
    mentions = find_numbers("Of 120 firms, about ten percent and 12% of workers left.")
    assert [mention.text for mention in mentions] == ["120", "ten percent", "12%"]
    assert mentions[1].role is Role.APPROXIMATE
