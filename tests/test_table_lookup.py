"""Tables by label: a float that holds several tabulars gives its label every one of them, in reading order."""

import pickle

from helpers import document, make_project

from auditex.analyzers.quantities import CitedLabel, each_cited, referenced_labels, shown_table, tabulars_by_label

_TWO_PARTS = r"""
\begin{table}
\caption{Accuracy on CIFAR-10 (left) and on SVHN (right).}\label{tab:both}
\begin{tabular}{lc}
Method & CIFAR-10 \\
Ours & 90.8 \\
\end{tabular}
\begin{tabular}{lc}
Method & SVHN \\
Ours & 96.2 \\
\end{tabular}
\end{table}
\begin{table}
\begin{tabular}{lc}
Method & MNIST \\
Ours & 99.1 \\
\end{tabular}
\caption{Accuracy on MNIST.}\label{tab:one}
\end{table}
"""


def test_every_label_keeps_all_its_tables_in_order():
    found = tabulars_by_label([(("tab:a", "tab:alias"), "first"), (("tab:b",), "other"), (("tab:a",), "second")])
    assert found == {"tab:a": ("first", "second"), "tab:alias": ("first",), "tab:b": ("other",)}


def test_each_cited_gives_every_table_of_each_label_and_skips_a_label_of_none():
    tables = {"tab:a": ("first", "second"), "tab:b": ("other",)}
    assert list(each_cited(["tab:b", "tab:missing", "tab:a"], tables)) == [("tab:b", "other"), ("tab:a", "first"), ("tab:a", "second")]


def test_a_float_of_two_tabulars_gives_its_label_both_with_its_caption(tmp_path):
    project = make_project(tmp_path, {"main.tex": document(_TWO_PARTS)})
    shown = [found for placed in project.manuscript.blocks if (found := shown_table(placed)) is not None]
    by_label = tabulars_by_label((item.labels, item.table) for item in shown)
    assert [table.column_header(1) for table in by_label["tab:both"]] == ["CIFAR-10", "SVHN"]
    assert {table.caption for table in by_label["tab:both"]} == {"Accuracy on CIFAR-10 (left) and on SVHN (right)."}
    assert [table.column_header(1) for table in by_label["tab:one"]] == ["MNIST"]


def test_a_letter_written_onto_a_reference_names_one_part_of_the_float():
    [part_b] = referenced_labels(r"MAKER was the outlier (Table~\ref{tab:both}b).")
    assert part_b == "tab:both" and isinstance(part_b, CitedLabel) and part_b.part == 1
    assert pickle.loads(pickle.dumps(part_b)).part == 1  # kept by the analysis cache
    tables = {"tab:both": ("left", "right"), "tab:one": ("only",)}
    assert list(each_cited([part_b], tables)) == [("tab:both", "right")]
    [part_c] = referenced_labels(r"Table~\ref{tab:one}(C)")
    assert list(each_cited([part_c], tables)) == [("tab:one", "only")]  # one tabular: the letter names a panel of it
    assert list(each_cited(referenced_labels(r"Table~\ref{tab:both}(c)"), tables)) == []  # a part the float lacks


def test_a_letter_apart_from_the_reference_or_two_parts_cite_the_whole_float():
    for text in (r"Table~\ref{tab:both} a new set", r"Table~\ref{tab:both}and", r"Tables~\ref{tab:both}a and \ref{tab:both}b"):
        [label] = referenced_labels(text)
        assert not isinstance(label, CitedLabel), text
