"""The table family's model: which statistic an aggregate row is, derived columns, sample-size groups, stacked blocks
and which side of a column is better."""

from helpers import document, make_project

from auditex.analyzers.rules.tables.blocks import contests, row_blocks, stacked
from auditex.analyzers.rules.tables.definitions import defined_column, operand_column, stated_derivations
from auditex.analyzers.rules.tables.direction import read_direction, stated_direction
from auditex.analyzers.rules.tables.marks import marked_groups, row_settings
from auditex.analyzers.rules.tables.model import (
    DERIVATIONS,
    MEAN,
    MEAN_ABSOLUTE,
    ROOT_MEAN_SQUARE,
    SUM,
    Grid,
    adds_up,
    cells_rounding,
    derivations,
    is_aggregate_row,
    row_groups,
    signed,
    size_rows,
    statistics_of,
    table_blocks,
    table_notes,
)
from auditex.analyzers.rules.tables.respectively import loosely_names, subject_tables
from auditex.analyzers.rules.tables.row_naming import OURS, names_row
from auditex.latex.model import Cell, Table


def _cell(row: int, column: int, text: str) -> Cell:
    try:
        value: float | None = float(text)
    except ValueError:
        value = None
    decimals = len(text.split(".")[1]) if value is not None and "." in text else 0
    return Cell(row, column, text, 0, 0, value=value, decimals=decimals)


def _grid(rows: list[list[str]], rules: tuple[tuple[int, str], ...] = ((1, "midrule"),)) -> Grid:
    cells = [[_cell(r, c, text) for c, text in enumerate(row)] for r, row in enumerate(rows)]
    return Grid.of(Table(cells, 0, 0, "tabular", header_rows=1, rules=rules))


def test_an_error_row_names_its_statistic_and_any_other_aggregate_is_a_mean_or_a_sum():
    assert statistics_of("MAE (eV)") == (MEAN_ABSOLUTE, MEAN)
    assert statistics_of("Mean absolute error") == (MEAN_ABSOLUTE, MEAN)
    assert statistics_of("RMSE") == (ROOT_MEAN_SQUARE, MEAN)
    assert statistics_of("Total") == (SUM, MEAN)
    assert statistics_of("Avg.") == (MEAN, SUM)
    assert is_aggregate_row("MAE") and is_aggregate_row("Sum") and not is_aggregate_row("MAE of the baseline")


def test_a_mae_row_is_the_mean_of_absolute_values_and_a_negative_sum_gives_its_parts_total():
    errors = [_cell(row, 1, text) for row, text in enumerate(["-0.8", "0.9", "-1.2", "0.2"], start=1)]
    assert adds_up(_cell(5, 1, "0.8"), errors, True, (), statistics_of("MAE"))
    assert not adds_up(_cell(5, 1, "0.4"), errors, True, (), statistics_of("MAE"))
    assert adds_up(_cell(5, 1, "0.9"), errors, True, (), statistics_of("RMSE"))
    counts = [_cell(row, 1, text) for row, text in enumerate(["22", "146", "70", "22"], start=1)]
    assert adds_up(_cell(5, 1, "-260"), counts, True, (), statistics_of("Sum"))
    assert not adds_up(_cell(5, 1, "-250"), counts, True, (), statistics_of("Sum"))


def test_the_roundings_of_many_cells_cancel_but_a_few_are_allowed_their_worst_case():
    few = [_cell(row, 1, text) for row, text in enumerate(["1.2", "3.4", "5.6"], start=1)]
    assert abs(cells_rounding(few, MEAN) - 0.05) < 1e-6  # three cells: all rounded one way is within four deviations
    many = [_cell(row, 1, "1.2") for row in range(1, 18)]
    assert 0.02 < cells_rounding(many, MEAN) < 0.03 and cells_rounding(many, SUM) < 17 * 0.05
    assert abs(cells_rounding(many, ROOT_MEAN_SQUARE) - 0.05) < 1e-6  # not a linear statistic: the worst case
    cut = [_cell(row, 1, text) for row, text in enumerate(["11.220", "17.960", "13.550", "12.866"], start=1)]  # 13.899
    assert adds_up(_cell(5, 1, "13.89"), cut, True, (), (MEAN,)) and not adds_up(_cell(5, 1, "13.88"), cut, True, (), (MEAN,))
    mixed = [_cell(1, 1, "7.70"), _cell(2, 1, "10.9")]
    assert abs(cells_rounding(mixed, MEAN) - (0.005 + 0.05) / 2) < 1e-6


def test_a_derivation_allows_for_the_rounding_of_its_inputs_but_not_for_an_open_result():
    difference, relative = DERIVATIONS[1], DERIVATIONS[2]
    assert difference.holds(_cell(0, 2, ".24"), _cell(0, 0, ".211"), _cell(0, 1, "-.026"))
    assert not difference.holds(_cell(0, 2, ".17"), _cell(0, 0, ".182"), _cell(0, 1, ".066"))
    # Two near-equal values: their relative change could be anything within a point either way.
    assert not relative.holds(_cell(0, 2, "0.90"), _cell(0, 0, "0.88"), _cell(0, 1, "0.88"))


def test_a_derived_column_is_found_with_the_rows_that_break_it():
    grid = _grid(
        [
            ["Pair", "SN", "UN", "Diff"],
            ["a", ".211", "-.026", ".24"],
            ["b", ".234", ".204", ".03"],
            ["c", ".182", ".066", ".17"],
            ["d", ".104", ".042", ".06"],
            ["e", ".104", ".058", ".05"],
        ]
    )
    best = max(derivations(grid, 3, list(grid.body_rows())), key=lambda fit: len(fit.held))
    assert (best.derivation.name, best.a, best.b, best.failed) == ("difference", 1, 2, (3,))


def test_a_sample_table_groups_its_rows_under_rules_and_category_labels():
    grid = _grid(
        [
            ["", "", "Patients", "Controls"],
            ["", "n", "934", "934"],
            ["Sex", "female", "556", "548"],
            ["", "male", "378", "368"],
            ["Site", "1", "285", "512"],
            ["", "2", "395", "236"],
        ]
    )
    assert size_rows(grid) == [1]
    assert row_groups(grid, 1) == [[2, 3], [4, 5]]


def test_a_recomputed_value_keeps_its_sign():
    assert signed(-0.225, 1) == "-0.2"
    assert signed(-0.01, 1) == "0.0"
    assert signed(18528, 0) == "18528"


def test_a_sentence_names_a_row_by_all_its_words_or_ours_by_our_method():
    words = {"mean", "teacher", "outperforms", "cutmix"}
    assert names_row("Mean Teacher", words, False)
    assert not names_row("Mean Teacher (ours)", words - {"teacher"}, False)
    assert names_row("Ours", set(), True)
    assert not names_row("Ours", set(), False)


def test_a_hyphen_closed_up_still_names_the_row():
    assert names_row("Finetuned", {"fine-tuned", "model"}, False)
    assert names_row("Pre-trained", {"pretrained"}, False)
    assert not names_row("HAF", {"cpf-haf"}, False)


def test_our_method_in_a_few_words_of_its_own_is_the_row_marked_ours():
    assert OURS.search("our proposed approach") and OURS.search("Our PL-based detector")
    assert not OURS.search("our baseline model") and not OURS.search("our previous method")
    assert OURS.search("the proposed method demonstrates") and OURS.search("we proposed model")
    assert not OURS.search("previously proposed methods") and not OURS.search("the method proposed by Xu")


def test_a_stacked_table_repeats_its_methods_block_by_block_but_variants_in_groups_are_no_blocks():
    grid = _grid(
        [["Method", "Acc"], ["CIFAR-10", ""], ["MixUp", "94.1"], ["Ours", "95.2"], ["CIFAR-100", ""], ["MixUp", "75.3"], ["Ours", "75.0"]],
        rules=((1, "midrule"), (4, "midrule")),
    )
    rows = list(grid.body_rows())
    blocks = row_blocks(grid, rows)
    assert sorted(blocks) == [2, 3, 5, 6] and blocks[6][1] == "CIFAR-100"
    assert stacked(grid, blocks, [3, 6])
    variants = _grid(
        [["Method", "Acc"], ["MixUp", "94.1"], ["Ours-small", "93.0"], ["Ours-large", "95.0"]], rules=((1, "midrule"), (3, "midrule"))
    )
    assert not stacked(variants, row_blocks(variants, [1, 2, 3]), [2, 3])
    cells = [cell for row in rows if (cell := grid.numeric(row, 1))]
    assert [[cell.text for cell in group] for group in contests(grid, rows, {3, 6}, cells)] == [["94.1", "95.2"], ["75.3", "75.0"]]
    assert contests(variants, [1, 2, 3], {2, 3}, cells) == [cells]


def test_a_mark_is_compared_within_the_groups_that_hold_one_and_leaves_reference_rows_out():
    grid = _grid(
        [["Method", "Acc"], ["Base", "71.2"], ["Prior", "74.5"], ["Oracle", "90.0"], ["Ours", "77.3"], ["Ours-L", "78.0"]],
        rules=((1, "midrule"), (4, "midrule")),
    )
    grid.cells[(2, 1)].underline = True
    settings = row_settings(grid)
    cells, groups = marked_groups(grid, 1, settings, lambda cell: cell.underline)
    assert [cell.text for cell in cells] == ["71.2", "74.5", "77.3", "78.0"]  # the oracle competes with nobody
    assert [[cell.text for cell in group] for group in groups] == [["71.2", "74.5"]]
    for row in (1, 2, 4):
        grid.cells[(row, 1)].underline = True
    assert marked_groups(grid, 1, settings, lambda cell: cell.underline)[1] == []  # most rows marked: a highlight, not a rank


def test_a_claim_that_every_result_is_significant_carries_its_threshold_and_exception():
    from auditex.analyzers.rules.tables.significance_note import significance_claims, threshold_of

    assert threshold_of("significant at \\smashp < 10^-4.") == 1e-4
    assert threshold_of("All correlations are significant at α=0.05.") == 0.05
    assert threshold_of("significant at the 1% level") == 0.01
    assert threshold_of("All results are significant.") is None
    (claim,) = significance_claims("All results except for DCGAN on CelebA are significant at p < 10^-4.")
    assert claim[2:] == ("DCGAN on CelebA", 1e-4)
    # A hedged claim, or one without its threshold, says nothing a p-value can deny.
    assert significance_claims("Almost all results are significant at p < 0.05.") == ()
    assert significance_claims("All results are significant.") == ()


_GRID = "\\begin{tabular}{lc}\n & (1) \\\\\nTreatment & 0.13** \\\\\n & (0.04) \\\\\n\\end{tabular}\n"


def _notes(tmp_path, float_body: str, files: dict[str, str]) -> list[str]:
    body = f"\\section{{Results}}\n\\begin{{table}}\\caption{{Wages.}}\\label{{tab:w}}\n{float_body}\n\\end{{table}}\n"
    project = make_project(tmp_path, {"main.tex": document(body), **files})
    return [table_notes(section, placed) for section in project.manuscript.sections for placed in table_blocks(section)]


def test_the_notes_of_an_input_tabular_are_those_its_float_writes_around_it(tmp_path):
    legend = "\\begin{tablenotes}\\item Standard errors in parentheses. * p<0.1, ** p<0.05.\\end{tablenotes}"
    (notes,) = _notes(tmp_path, f"\\input{{tables/w}}\n{legend}", {"tables/w.tex": _GRID})
    assert "Wages." in notes and "Standard errors in parentheses. * p<0.1, ** p<0.05." in notes


def test_an_inline_tabular_reads_its_notes_from_its_own_block_once(tmp_path):
    (notes,) = _notes(tmp_path, f"{_GRID}\\footnotesize Note: N = 120.", {})
    assert notes.count("N = 120") == 1 and "Wages." in notes


def test_another_floats_notes_are_not_a_tables_own(tmp_path):
    other = "\\begin{table}\\caption{Other.}\\label{tab:o}\\input{tables/o}\\footnotesize Note: N = 99.\\end{table}\n"
    body = f"\\section{{Results}}\n\\begin{{table}}\\caption{{Wages.}}\\label{{tab:w}}\\input{{tables/w}}\\end{{table}}\n{other}"
    project = make_project(tmp_path, {"main.tex": document(body), "tables/w.tex": _GRID, "tables/o.tex": _GRID})
    notes = [table_notes(section, placed) for section in project.manuscript.sections for placed in table_blocks(section)]
    assert len(notes) == 2 and "N = 99" not in notes[0] and "N = 99" in notes[1]


def test_a_caption_or_note_that_says_which_side_is_better_sets_the_columns_its_headers_leave_open():
    assert stated_direction("Cross-attention bleed rate (lower is better).") == -1
    assert stated_direction("Negative log relative error. In each case, higher is better.") == 1
    assert stated_direction("The larger, the better.") == 1
    assert stated_direction("Larger models are better at rare words.") == 0  # a claim about rows, not the columns' side
    # Both sides said: each column's own header must say which.
    assert stated_direction("MAE (lower is better) and accuracy (higher is better)") == 0
    assert stated_direction("Lower bounds are reported.") == 0
    # The header's arrow or metric name comes first; a stated side before the metric the caption names.
    assert read_direction("Acc", "relative error", -1) == (1, "header")
    assert read_direction("CIFAR-10", "Negative log of the relative error", 1) == (1, "note")
    assert read_direction("CIFAR-10", "Negative log of the relative error") == (-1, "caption")
    # "% correct" is an accuracy; "incorrect" and "corrected" name no metric.
    assert read_direction("% correct", None) == (1, "header")
    assert read_direction("incorrect", None) == read_direction("Bonferroni-corrected", None) == (0, "")


def test_a_grid_reads_the_side_its_notes_state_and_the_caption_where_it_has_no_notes(tmp_path):
    legend = "\\begin{tablenotes}\\item Lower is better.\\end{tablenotes}"
    body = "\\section{R}\n\\begin{table}\\caption{Bleed.}\\label{tab:b}\\input{tables/b}\n" + legend + "\\end{table}\n"
    grid_text = "\\begin{tabular}{lc}\n & Test \\\\\nA & 1.0 \\\\\n\\end{tabular}\n"
    project = make_project(tmp_path, {"main.tex": document(body), "tables/b.tex": grid_text})
    ((section, placed),) = [(section, placed) for section in project.manuscript.sections for placed in table_blocks(section)]
    table = placed.block.table
    assert Grid.of(table, notes=table_notes(section, placed)).direction(1) == (-1, "note")
    assert Grid.of(table).direction(1) == (0, "")


def test_a_clause_is_read_without_the_labels_it_references_and_a_contrast_splits_a_sentence():
    from auditex.analyzers.quantities import without_refs
    from auditex.analyzers.rules.tables.model import contrast_clauses

    cited = "As Table~\\ref{tab:many-scores} shows, V2 has consistent gains."
    assert "many" not in without_refs(cited)
    assert without_refs(cited).index("V2") == cited.index("V2")  # a word found in it stands where it stands in the text
    keyed = "As \\citet[most of Ch.~2]{all2019} and \\crefrange{tab:all}{tab:most} show, V2 gains."
    assert without_refs(keyed).split() == ["As", "and", "show,", "V2", "gains."]  # a key's and a note's words are no prose
    sentence = "Both are accurate on most videos, but TRex is improved in all cases while using less memory."
    assert [clause for _, clause in contrast_clauses(sentence)] == [
        "Both are accurate on most videos",
        ", but TRex is improved in all cases ",
        "while using less memory.",
    ]


def test_the_prose_presenting_a_table_gives_its_better_side_when_it_names_metrics_of_one_direction(tmp_path):
    from auditex.analyzers.rules.tables.citing import presented_directions, section_cited
    from auditex.analyzers.rules.tables.direction import prose_direction

    assert prose_direction("Each row shows the mean accuracy after selecting n samples.") == 1
    assert prose_direction("Table 2 lists the error of each method.") == -1
    assert prose_direction("Table 2 lists the accuracy and the error of each method.") == 0
    assert prose_direction("Table 2 lists each method.") == 0
    body = (
        "\\section{Results}\nTable~\\ref{tab:a} lists the accuracy of each method.\n\n"
        "Table~\\ref{tab:b} lists the accuracy, and Table~\\ref{tab:a} again its loss.\n\n"
        "Table~\\ref{tab:c} lists the error rate of each method.\n\n"
        "The gradient norm method shows a consistent improvement over other methods.\n"
        "\\begin{table}\\caption{Methods.}\\label{tab:d}\n" + _GRID + "\\end{table}\n"
    )
    project = make_project(tmp_path, {"main.tex": document(body)})
    (section,) = [section for section in project.manuscript.sections if section.title == "Results"]
    # tab:a is presented once by its accuracy and once by its loss: its side is left open.
    assert presented_directions(section) == (("tab:c", -1),)
    # A claim in a paragraph citing nothing may speak of any table its section cites or places.
    assert section_cited(section) == ("tab:a", "tab:b", "tab:c", "tab:d")


def test_a_paragraph_citing_nothing_reads_the_tables_its_section_cites_and_says_so(tmp_path):
    from auditex.analyzers.rules.tables.citing import claim_sentences, section_cited

    body = "\\section{Results}\nTable~\\ref{tab:a} lists the accuracy. Figure~\\ref{fig:b} plots it.\n\nX is better than Y in all cases.\n"
    project = make_project(tmp_path, {"main.tex": document(body)})
    (section,) = [section for section in project.manuscript.sections if section.title == "Results"]
    first, second = [placed for placed in section.blocks if placed.kind.value == "paragraph"]
    in_section = section_cited(section)
    # The paragraph citing a table keeps its own sentences' labels; the one citing nothing takes the section's.
    assert [(labels, sectioned) for _, _, labels, sectioned in claim_sentences(first, in_section)] == [
        (("tab:a",), False),
        (("fig:b",), False),
    ]
    assert [(labels, sectioned) for _, _, labels, sectioned in claim_sentences(second, in_section)] == [(("fig:b", "tab:a"), True)]


def test_a_note_defines_a_difference_or_a_ratio_in_the_order_its_operator_fixes():
    def read(text: str) -> list[tuple[str, str, str, str]]:
        return [(found.name, found.left, found.right, found.derivation.name) for found in stated_derivations(text)]

    assert read("due to brain region. Δ L2FC is the log2 fold change of (5) minus (3), where") == [("Δ L2FC", "(5)", "(3)", "difference")]
    assert read("Speed-up is the runtime of the baseline divided by that of ours.") == [
        ("Speed-up", "runtime of the baseline", "ours", "ratio")
    ]
    assert read("R is the ratio of (2) to (1).") == [("R", "(2)", "(1)", "ratio")]
    assert read("Δ is ViT subtracted from CNN.") == [("Δ", "CNN", "ViT", "difference")]
    # No order: "the difference between A and B", "the change from A to B".
    assert read("Gap is the difference between treated and control.") == read("Gap is the change from A to B.") == []
    assert read("Imp. is the improvement of ours over the baseline.") == []
    assert read("FC is the fold change of treated over control.") == [("FC", "fold change of treated", "control", "ratio")]


def test_an_operand_names_its_column_by_the_number_the_paper_gives_it_or_by_its_nearest_words():
    grid = _grid([["Gene", "HD+ L2FC (3)", "GTEx L2FC (5)", "Δ (3) vs (5) L2FC"], ["CFAP157", "-0.13", "4.30", "-4.43"]])
    assert operand_column(grid, "(5)", (), first=True) == 2 and operand_column(grid, "(3)", (2,), first=False) == 1
    assert defined_column(grid, "Δ L2FC", (2, 1)) == 3
    times = _grid([["Input", "Baseline (s)", "Ours (s)", "Speed-up"], ["small", "2.0", "4.0", "2.0"]])
    assert operand_column(times, "runtime of the baseline", (), first=True) == 1
    assert operand_column(times, "ours", (1,), first=False) == 2
    assert operand_column(times, "(4)", (), first=True) is None  # no column numbered 4
    assert defined_column(times, "Speed-up", (1, 2)) == 3


def test_a_list_of_subjects_names_one_table_each_by_its_caption_and_a_caption_of_them_all_names_none():
    captions = ["Dataset statistics. Datasets: OQA, HK, DIC.", "OpinionQA Performance Metrics", "DICES Performance Metrics"]
    assert subject_tables("For DIC and OQA, two clusters keep 60%/51% respectively.", captions) == [2, 1]
    assert subject_tables("For DICES, two clusters keep 60% of the information.", captions) is None
    assert subject_tables("Performance and Metrics reach 60% and 51%, respectively.", captions) is None
    assert (
        subject_tables("For Dic and Oqa, two clusters keep 60%/51% respectively.", captions) is None
    )  # a start or capitals only in capitals


def test_a_header_is_loosely_named_by_any_form_of_its_words():
    sentence = "using just two clusters preserves the majority of the usable rater information"
    assert loosely_names(sentence, "profile cluster-2") and loosely_names(sentence, "Info Preserved")
    assert not loosely_names(sentence, "Test Accuracy") and not loosely_names("the rat ran", "Rater")
