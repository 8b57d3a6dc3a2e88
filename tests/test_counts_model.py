"""The count family's reading of what a sentence says a table lists, and of what the table lists."""

from auditex.analyzers.rules.counts.model import BREAKDOWN, INLINE, LISTED, MARKED, PARENTHESISED, mismatches
from auditex.analyzers.rules.counts.table_rows import (
    listings,
    member_head,
    panel_claims,
    panel_titles,
    set_counts,
    set_coverages,
    set_key,
    set_members,
    table_counts,
    untitled_panel,
)
from auditex.analyzers.rules.counts.whole_count import prose_wholes, table_wholes
from auditex.latex.model import Cell, Table


def _claims(sentence):
    return [(claim.label, claim.stated, claim.noun) for claim in table_counts(sentence)]


def test_a_count_is_read_after_the_table_it_cites_and_before_it():
    assert _claims("Table~\\ref{tab:t} contains the top 10 genes ranked by t.") == [("tab:t", 10, "genes")]
    assert _claims("Table \\ref{tab:s} lists all forty-eight sequences.") == []  # "eight" is not read out of "forty-eight"
    assert _claims("The seven gene sets listed in Table~\\ref{tab:g} are enriched.") == [("tab:g", 7, "gene sets")]


def test_bounds_selections_and_settings_are_not_counts_of_rows():
    assert _claims("Table~\\ref{t} shows at least 3 genes with a negative change.") == []
    assert _claims("Table~\\ref{t} lists 2 of the 40 genes we tested.") == []
    assert _claims("Table~\\ref{t} reports 5 runs of each method.") == []


def _table(*rows, header_rows=1):
    cells = [[Cell(r, c, text, 0, 0, column_span=span) for c, (text, span) in enumerate(row)] for r, row in enumerate(rows)]
    return Table(cells, 0, 0, "tabular", header_rows)


def test_a_table_is_counted_with_and_without_group_titles_continued_rows_and_aggregates():
    table = _table(
        [("Gene", 1), ("A", 1), ("B", 1)],
        [("Panel A", 3)],
        [("X1", 1), ("1", 1), ("2", 1)],
        [("", 1), ("1", 1), ("2", 1)],
        [("X2", 1), ("1", 1), ("2", 1)],
        [("Total", 1), ("2", 1), ("4", 1)],
    )
    counts = set(listings(table))
    assert {5, 4, 3, 2} <= counts  # body rows, rows of data, named rows, named rows without the total
    assert 7 not in counts and 6 not in counts


def _enumerations(source):
    return [(stated, found.counted, found.how) for _, stated, found in mismatches(source)]


def test_items_that_carry_their_counts_add_them_however_long_they_are():
    aside = "the five indicators we use---two based on visits from insurance claims, one on online surveys, and one on searches---help."
    assert _enumerations(aside) == [(5, 4, BREAKDOWN)]
    assert _enumerations(aside.replace("five", "four")) == []
    # Long items that carry no count of their own are not told apart.
    assert _enumerations("three models: a network trained on all the data we have, and a tree grown on a subset of it.") == []


def test_each_way_of_telling_items_apart_is_named():
    assert _enumerations("We use five datasets: A, B, C and D.") == [(5, 4, INLINE)]
    assert _enumerations("We use three datasets (A, B, C and D).") == [(3, 4, PARENTHESISED)]
    assert _enumerations("We use three datasets:\n\\begin{itemize}\n\\item A\n\\item B\n\\end{itemize}") == [(3, 2, LISTED)]
    # A dash sets off asides of every kind: only a breakdown is read as the enumeration.
    assert _enumerations("in about three words --- just who is speaking and the substance of it --- or a cue.") == []


def test_a_list_may_enumerate_an_earlier_count_of_its_clause():
    assert _enumerations("The figure shows four regressions between the two models: (a) one, (b) two, (c) three, (d) four.") == []
    assert _enumerations("The figure shows four regressions between the two models: (a) one, (b) two, (c) three.") == [(2, 3, MARKED)]


def test_a_known_set_counted_beside_one_table_citation_is_read():
    assert _claims("Table~\\ref{d} gives the statistics of all four datasets we use.") == [("d", 4, "datasets")]
    assert _claims("Of the 40 languages, Table~\\ref{t} covers the remaining 12 languages.") == []  # a whole, a part
    assert _claims("The three splits of Table~\\ref{t} and Figure~\\ref{f} differ.") == []  # two citations


def test_a_group_under_its_title_and_a_stretch_between_rules_are_counted_without_their_summary_row():
    table = _table(
        [("Split", 1), ("Accuracy", 1)],
        [("Test set", 1), ("99.9", 1)],
        [("Generalization splits", 1), ("", 1)],
        [("a", 1), ("1.0", 1)],
        [("b", 1), ("2.0", 1)],
        [("c", 1), ("3.0", 1)],
        [("all splits (aggregate)", 1), ("2.0", 1)],
    )
    assert 3 in set(listings(table))


def test_header_rows_the_parse_took_for_the_body_are_not_counted():
    table = _table(
        [("No pile-up", 4)],
        [("Category", 1), ("Cut", 1), ("S", 1), ("B", 1)],
        [("Boosted", 1), ("0", 1), ("1", 1), ("2", 1)],
        [("", 1), ("0.9", 1), ("1", 1), ("2", 1)],
        [("Resolved", 1), ("0", 1), ("1", 1), ("2", 1)],
        [("", 1), ("0.6", 1), ("1", 1), ("2", 1)],
    )
    assert 2 in set(listings(table))


def _wholes(sentence, abstract=False):
    return [(key, value, bound) for _, _, key, value, bound, _ in prose_wholes(sentence, abstract)]


def test_a_whole_is_an_abstract_count_or_a_body_count_marked_whole():
    assert _wholes("We identified 57 studies containing 196 unique evaluations.", abstract=True) == [("studi", 57, ""), ("evalu", 196, "")]
    assert _wholes("We identified 57 studies containing 196 unique evaluations.") == []
    assert _wholes("This yielded a total of 57 studies.") == [("studi", 57, "")]
    assert _wholes("Characteristics of the 57 included studies are shown.") == [("studi", 57, "")]
    assert _wholes("We asked the respondents (N = 640) about the reform.") == [("respondent", 640, "")]
    assert _wholes("We followed more than 1,000 patients.", abstract=True) == [("patient", 1000, ">")]


def test_parts_splits_and_cited_counts_are_no_wholes():
    assert _wholes("Of the 63 studies, 30 studies compared PCV10 with no vaccination.", abstract=True) == [("studi", 63, "")]
    assert _wholes("A total of 24 evaluations from 14 studies compared PCV7.") == []
    assert _wholes("In total, 158 training images were labelled.") == []
    assert _wholes("The households (N = 40) in each village were visited.") == []
    assert _wholes("Prior work recruited a total of 150 participants \\cite{smith}.") == []


def test_a_table_gives_a_whole_in_a_header_n_a_total_row_or_a_size_row_of_one_value():
    header = _table([("Characteristic", 1), ("Number of evaluations, N=209", 1)], [("PCV7", 1), ("24", 1)])
    assert [(key, value) for key, value, _, _ in table_wholes(header)] == [("evalu", 209)]
    total = _table([("Site", 1), ("Images", 1)], [("North", 1), ("1,000", 1)], [("Total", 1), ("1,792", 1)])
    assert [(key, value) for key, value, _, _ in table_wholes(total)] == [("imag", 1792)]
    one_sample = _table([("", 1), ("(1)", 1), ("(2)", 1)], [("Observations", 1), ("628", 1), ("628", 1)])
    assert [(key, value) for key, value, _, _ in table_wholes(one_sample)] == [("observ", 628)]
    two_samples = _table([("", 1), ("(1)", 1), ("(2)", 1)], [("Observations", 1), ("2,000", 1), ("6,304", 1)])
    assert list(table_wholes(two_samples)) == []


def test_a_list_after_the_counts_clause_is_its_enumeration_unless_the_clause_names_another_set():
    listed = "\\begin{itemize}\n\\item A\n\\item B\n\\item C\n\\end{itemize}"
    assert _enumerations(f"We make four contributions in this paper:\n{listed}") == [
        (4, 3, "moderate: items of a list environment after the count's clause")
    ]
    assert _enumerations(f"We make three contributions in this paper:\n{listed}") == []
    assert _enumerations(f"Training stops in the last five epochs if one of the following criteria is met:\n{listed}") == []
    assert _enumerations(f"The four surveys are presented as part of three studies:\n{listed}") == []
    assert _enumerations(f"It covers 47 specifications, except the following:\n{listed}") == []
    assert _enumerations(f"We use four datasets in our study.\n{listed}") == []  # a full stop: the list may be anything


def test_an_n_fold_announcement_counts_what_follows():
    listed = "\\begin{itemize}\n\\item A\n\\item B\n\\item C\n\\end{itemize}"
    assert [(stated, counted) for stated, counted, _ in _enumerations(f"Our contributions are twofold:\n{listed}")] == [(2, 3)]
    assert _enumerations(f"Our contributions are three-fold:\n{listed}") == []
    assert [(stated, counted) for stated, counted, _ in _enumerations("The reason is twofold. First, A. Second, B. Third, C.")] == [(2, 3)]
    assert _enumerations("The reason is twofold. First, A. Second, B.") == []
    assert _enumerations("a threefold increase. First, A. Second, B.") == []


def test_both_announces_two_items_but_not_a_breakdown_of_its_members_nor_an_ordinal_run():
    assert _enumerations("We report results on both tasks (tagging, parsing and chunking).") == [
        (2, 3, 'moderate: a parenthesised list after "both"')
    ]
    assert _enumerations("We use both datasets: A, B and C.") == [(2, 3, 'moderate: an inline list closed by and/or after "both"')]
    assert _enumerations("in both tribes (8 Canini, 1 Vulpini).") == []
    assert _enumerations("We compare both approaches. First, A. Second, B. Third, C.") == []
    assert _enumerations("associated with both measurements: $r^2 = 0.78$; $e = 0.05$ and $r^2 = 0.74$; $e = 0.02$.") == []


def test_a_count_may_stand_before_a_noun_with_several_modifiers_but_not_before_function_words_or_plurals():
    assert _enumerations("It covers six diverse document types (patents, scientific, legal, reports, tenders).") == [(6, 5, PARENTHESISED)]
    assert _enumerations("on three standard 3D detection benchmarks: A, B, C and D.") == [(3, 4, INLINE)]
    assert _enumerations("Each model has two to four parameters: a, b and c.") == []
    assert _enumerations("six studies included other evaluations (A vs B, C vs D, and E vs F).") == []


def test_markers_the_pattern_does_not_read_are_no_count():
    assert _enumerations("three techniques: 1)~{\\em A}, 2)~{\\em B} and 3)~{\\em C}.") == []
    assert _enumerations("three techniques: 1)~{\\em A} and 2)~{\\em B}.") == [(3, 2, MARKED)]


def test_an_inline_list_after_the_counts_clause_is_read_but_not_past_a_label_or_a_formula():
    clause = "moderate: an inline list closed by and/or after the count's clause"
    assert _enumerations("We use three models for our experiments: A, B, C and D.") == [(3, 4, clause)]
    assert _enumerations("six labels in Table~\\ref{table:grade-stats}: novice, beginner and expert.") == []
    assert _enumerations("Two indices are used: $l,r$ for left and right.") == []
    assert _enumerations("We use three datasets for both tasks: A, B and C.") == []  # "both" is not announcing the list
    assert _enumerations("two such types of material: appendices, which can be read, and others, often data.") == []


def _panels(text):
    return [(claim.panel, claim.stated, claim.label) for claim in panel_claims(text)]


def test_a_text_names_panels_of_its_own_table_or_of_the_table_it_cites():
    assert _panels("This table has two panels. Panel A uses loans, while Panel B uses the survey.") == [
        (None, 2, None),
        (1, None, None),
        (2, None, None),
    ]
    assert _panels("as Panel A of Table \\ref{SS}, and Table~\\ref{T}, Panel C") == [(1, None, "SS"), (3, None, "T")]
    assert _panels("The regressions in panel (b) use, and Panels A-C show") == [(2, None, None), (3, None, None)]
    # A bare lower-case letter is an article, a number before "panels" may end a cell's value, and "Panel data" names a row.
    assert _panels("each panel a figure shows; 1.2 panels; Panel data") == []


def test_a_table_titles_its_panels_in_any_cell_and_an_unlettered_title_is_one_panel():
    assert panel_titles(_table([("", 1), ("Panel A: Speed", 2)], [("X", 1), ("Panel B: Default", 1), ("Panel C: Visits", 1)])) == [1, 2, 3]
    assert panel_titles(_table([("", 1), ("Panel : Survey data", 2)], [("Panel data estimate", 1), ("1", 1), ("2", 1)])) == [None]


def test_a_named_panel_is_judged_against_titles_that_start_at_the_first():
    (two,) = panel_claims("two panels")
    (second,) = panel_claims("Panel B")
    (fourth,) = panel_claims("Panel D")
    assert untitled_panel(two, [None]) and untitled_panel(second, [None]) and untitled_panel(fourth, [1, 2, 3])
    assert not untitled_panel(second, [1, 2]) and not untitled_panel(two, [1, 2])
    assert not untitled_panel(second, []) and not untitled_panel(second, [3, 4])  # no titles; the rest of a split table


def test_a_named_set_is_counted_in_a_list_beside_its_name_and_in_a_paragraph_it_leads():
    listed = set_counts("We count 45 tasks in \\metaworld, 34 in \\calvin, 20 in \\habpick where we count each goal, and 5 in BabyAI.")
    assert [(count.name, member_head(count.member), count.stated) for count in listed] == [
        ("\\metaworld", "task", 45),
        ("\\calvin", "task", 34),
        ("\\habpick", "task", 20),
        ("BabyAI", "task", 5),
    ]
    led = set_counts("CALVIN \\cite{m}: a tabletop benchmark. We use the split of the benchmark with 34 tasks.")
    assert [(count.name, count.stated) for count in led] == [("CALVIN", 34)]
    nearest = set_counts("Unlike \\calvin, Meta-World has 45 tasks.")
    assert [(count.name, count.stated) for count in nearest] == [("Meta-World", 45)]
    led_past_a_nearer_name = set_counts("CALVIN: a benchmark. We use the ABC split with 34 tasks.")
    assert [(count.name, count.stated) for count in led_past_a_nearer_name] == [("ABC", 34), ("CALVIN", 34)]
    assert set_counts("Training: we use 5 tasks in total.") == ()  # a paragraph's label, not a set
    part = set_counts("We adapt to 5 tasks from \\metaworld and 4 holdout tasks of \\calvin.")
    assert [(count.name, member_head(count.member)) for count in part] == [("\\calvin", "holdout task")]


def test_a_table_said_to_cover_a_named_set_is_its_caption_float_or_its_one_cited_table():
    assert [(c.label, c.name, c.member) for c in set_coverages("Breakdown on every \\calvin task.", True)] == [(None, "\\calvin", "task")]
    cited = set_coverages("\\Cref{t:c} shows performance for each of the \\calvin tasks.", False)
    assert [(c.label, c.name, c.member) for c in cited] == [("t:c", "\\calvin", "tasks")]
    assert set_coverages("\\Cref{t:c} and \\Cref{t:d} show each of the \\calvin tasks.", False) == ()
    assert set_coverages("Results on every \\calvin task.", False) == ()  # a sentence that cites no table


def test_the_members_of_a_set_are_its_named_rows_without_the_row_of_the_whole_set():
    rows = [["", "A", "B"], ["\\textbf{Meta-World}", "84", "61"], ["assembly", "100", "70"], ["basketball", "90", "70"]]
    table = _table(*([(text, 1) for text in row] for row in rows))
    assert set_members(table, "Meta-World", lambda text: text.replace("\\textbf{Meta-World}", "Meta-World")) == 2
    assert set_key("Meta World") == set_key("meta-world")
