"""pymupdf's layout model as an oracle for the reading-order roles, on every page of the
ten corpus papers.

The model's boxes for every page are stored in ``tests/data/layout_model_boxes.json``
(written by ``python benchmarks/layout_agreement.py --write-snapshot …``; running the
model on all 112 pages takes minutes and crashes the interpreter on two of them). The
agreement of the heuristic roles with the model's classes must stay at or above the
floor measured for each paper, so a change to the heuristic that loses agreement fails.
The first pages of three papers are run through the installed model again, so the snapshot cannot
drift from the model it claims to be.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest
from conftest import document, paper_path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from _corpus import CORPUS  # noqa: E402
from layout_agreement import _overlap, agreement, model_boxes_of_pages, read_snapshot  # noqa: E402

SNAPSHOT = Path(__file__).resolve().parent / "data" / "layout_model_boxes.json"

FLOORS = {
    # share of compared lines whose role agrees with the model, measured, less about
    # half a point; where the heuristic is right and the model wrong (sidebars, rotated
    # table pages, captions beside a figure, text boxed apart from the columns), the
    # disagreement stays in the measure: the model reads algorithm listings
    # ("Algorithm 2 Name" and its numbered steps) and captions with no punctuation after
    # the number ("Figure 1  Title") as text, where a reader skips them as floats
    "acl2020_specter.pdf": 0.990,
    "arxiv2015_influential_nodes_rotated.pdf": 0.821,
    "arxiv2022_strain_sensor_elsarticle.pdf": 0.949,
    "clef2008_ave_answer_validation_msword.pdf": 0.988,
    "emnlp2004_monolingual_mt_paraphrase_msword.pdf": 0.977,
    "ieee_tcsvt1997_disk_storage_scalable_video.pdf": 0.968,
    "jcap2008_apparent_accelerations.pdf": 0.944,
    "natneuro2011_ephaptic_coupling.pdf": 0.890,
    "pldi2009_tracemonkey.pdf": 0.974,
    "pmj2010_iron_deficiency_hpylori.pdf": 0.866,
}
OVERALL_FLOOR = 0.932


@pytest.fixture(scope="module")
def snapshot() -> dict:
    return read_snapshot(SNAPSHOT)["papers"]


def test_snapshot_covers_the_corpus_as_found(snapshot):
    assert set(snapshot) == set(CORPUS) == set(FLOORS)
    for name in CORPUS:
        digest = hashlib.sha256(paper_path(name).read_bytes()).hexdigest()
        assert snapshot[name]["sha256"] == digest, f"{name}: the snapshot was made from another file"
        pages = len(document(name).pages)
        stored = set(snapshot[name]["pages"]) | set(snapshot[name]["failed_pages"])
        assert stored == set(range(1, pages + 1)), f"{name}: the snapshot misses pages"


@pytest.mark.parametrize("name", CORPUS)
def test_agreement_with_the_layout_model_stays_above_its_floor(name, snapshot):
    stored = snapshot[name]
    result = agreement(paper_path(name), document=document(name), boxes=stored["pages"], failed=stored["failed_pages"])
    assert result.compared > 200, f"{name}: too few lines compared ({result.compared})"
    assert result.share >= FLOORS[name], (
        f"{name}: {100 * result.share:.1f}% of lines agree with the layout model, floor {100 * FLOORS[name]:.1f}%; "
        f"commonest disagreements: {[(k, n) for k, n in result.confusion.most_common() if k[0] != k[1]][:3]}"
    )


def test_overall_agreement(snapshot):
    compared = agreed = 0
    for name in CORPUS:
        stored = snapshot[name]
        r = agreement(paper_path(name), document=document(name), boxes=stored["pages"], failed=stored["failed_pages"])
        compared, agreed = compared + r.compared, agreed + r.agreed
    assert agreed / compared >= OVERALL_FLOOR


def test_snapshot_is_what_the_installed_model_says(snapshot):
    # first pages (title block, abstract, notes, stamps) of three producers: pdfTeX
    # two-column, MS Word two-column, Distiller single-column; the model is slow to run
    sample = ("acl2020_specter.pdf", "emnlp2004_monolingual_mt_paraphrase_msword.pdf", "jcap2008_apparent_accelerations.pdf")
    live = model_boxes_of_pages([(paper_path(name), 1) for name in sample])
    for name, boxes in zip(sample, live):
        stored = snapshot[name]["pages"][1]
        assert [b[4] for b in boxes] == [b[4] for b in stored], name
        for a, b in zip(boxes, stored):
            area = max((a[2] - a[0]) * (a[3] - a[1]), 1e-6)
            assert _overlap(a, b) >= 0.95 * area, name
