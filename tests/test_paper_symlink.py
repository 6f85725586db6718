"""A quote set's ``paper.file`` is looked up in the set's own folder last; a symbolic
link there that leads out of the folder is refused, so a set cannot point the checker
(or a shared workbench) at a file elsewhere on the server."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from quotelocate.data.quoteset import load_quote_set
from quotelocate.errors import DatasetError

REPO = Path(__file__).resolve().parent.parent
SYNTH = REPO / "datasets" / "synthetic"


@pytest.fixture()
def set_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("QUOTELOCATE_PAPERS", str(tmp_path / "empty"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    folder = tmp_path / "set"
    folder.mkdir()
    shutil.copy(SYNTH / "synthetic.yaml", folder / "synthetic.yaml")
    return folder


def test_a_paper_symlink_leading_out_of_the_set_folder_is_refused(set_folder, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(SYNTH / "synthetic.pdf", elsewhere / "synthetic.pdf")
    os.symlink(elsewhere / "synthetic.pdf", set_folder / "synthetic.pdf")
    with pytest.raises(DatasetError, match="symbolic link that leads out of that folder"):
        load_quote_set(set_folder / "synthetic.yaml")


def test_a_dangling_or_relative_escape_is_refused_too(set_folder):
    os.symlink("../../../../etc/passwd", set_folder / "synthetic.pdf")
    with pytest.raises(DatasetError, match="leads out"):
        load_quote_set(set_folder / "synthetic.yaml")


def test_a_symlink_inside_the_set_folder_and_a_real_file_are_accepted(set_folder):
    (set_folder / "store").mkdir()
    shutil.copy(SYNTH / "synthetic.pdf", set_folder / "store" / "paper-copy.pdf")
    os.symlink(Path("store") / "paper-copy.pdf", set_folder / "synthetic.pdf")
    assert len(load_quote_set(set_folder / "synthetic.yaml").quotes) > 10
    (set_folder / "synthetic.pdf").unlink()
    shutil.copy(SYNTH / "synthetic.pdf", set_folder / "synthetic.pdf")
    assert load_quote_set(set_folder / "synthetic.yaml").paper_path == set_folder / "synthetic.pdf"


def test_a_folder_the_user_put_on_the_papers_path_may_hold_links(set_folder, tmp_path, monkeypatch):
    papers = tmp_path / "papers"
    papers.mkdir()
    shutil.copy(SYNTH / "synthetic.pdf", tmp_path / "real.pdf")
    os.symlink(tmp_path / "real.pdf", papers / "synthetic.pdf")
    monkeypatch.setenv("QUOTELOCATE_PAPERS", str(papers))
    assert load_quote_set(set_folder / "synthetic.yaml").paper_path == papers / "synthetic.pdf"
