"""Uploads to the shared workbench: an oversized file is refused from the size of the
uploaded object's buffer before anything is copied, hashed or written, and no error
message shows the server's folders."""

from __future__ import annotations

import io
import tempfile
from pathlib import Path

import pytest
import yaml
from streamlit.testing.v1 import AppTest

from quotelocate.errors import DatasetError, DocumentError
from quotelocate.interface import workbench

REPO = Path(__file__).resolve().parent.parent
APP = str(REPO / "app.py")
SYNTH_YAML = REPO / "datasets" / "synthetic" / "synthetic.yaml"
SYNTH_PDF = REPO / "datasets" / "synthetic" / "synthetic.pdf"


class Upload(io.BytesIO):
    """Like Streamlit's UploadedFile: a BytesIO with a ``size``; records copies."""

    def __init__(self, data: bytes):
        super().__init__(data)
        self.size = len(data)
        self.copied = 0

    def getvalue(self) -> bytes:
        self.copied += 1
        return super().getvalue()


def test_an_oversized_upload_object_is_refused_without_copying_it():
    big = Upload(b"x" * 2000)
    with pytest.raises(DatasetError, match="exceeds the upload limit"):
        workbench.check_upload_object(big, "quote set", max_bytes=1000)
    assert big.copied == 0
    with pytest.raises(DatasetError, match="empty"):
        workbench.check_upload_object(Upload(b""), "paper")
    workbench.check_upload_object(Upload(b"x" * 1000), "paper", max_bytes=1000)


def test_a_plain_buffer_is_measured_by_its_buffer():
    with pytest.raises(DatasetError, match="exceeds"):
        workbench.check_upload_object(io.BytesIO(b"y" * 11), "paper", max_bytes=10)


@pytest.fixture()
def _isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("QUOTELOCATE_RUNS", str(tmp_path / "runs.sqlite3"))
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    monkeypatch.setattr(tempfile, "tempdir", None)  # re-read TMPDIR
    monkeypatch.chdir(REPO)
    return tmp_path / "tmp"


def upload(set_bytes: bytes, pdf_bytes: bytes | None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.selectbox(key="set").select("upload").run()
    at.get("file_uploader")[0].set_value(("quotes.yaml", set_bytes, "application/yaml"))
    if pdf_bytes is not None:
        at.get("file_uploader")[1].set_value(("paper.pdf", pdf_bytes, "application/pdf"))
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def shown(at: AppTest) -> str:
    return "\n".join([e.value for e in at.error] + [c.value for c in at.code] + [i.value for i in at.info])


def test_the_app_refuses_an_oversized_upload_before_writing_it(_isolated, monkeypatch):
    monkeypatch.setattr(workbench, "MAX_UPLOAD_BYTES", 1000)
    at = upload(SYNTH_YAML.read_bytes(), SYNTH_PDF.read_bytes())
    assert "exceeds the upload limit" in shown(at)
    staged = [p for p in _isolated.rglob("*") if p.name in (workbench.SET_FILE, workbench.PAPER_FILE)]
    assert not staged, "nothing of the upload reaches the disk"


BAD_SETS = {
    "yaml-tag": (b"format: 1\nname: x\npaper: !!python/object/apply:os.system ['echo hi']\n", None),
    "bad-pdf": (SYNTH_YAML.read_bytes(), b"%PDF-1.4 not really a pdf"),
    "empty-quotes": (b'format: 1\nname: x\npaper: {file: p.pdf, sha256: "' + b"a" * 64 + b'"}\nquotes: []\n', None),
    "missing-paper": (yaml.safe_dump({**yaml.safe_load(SYNTH_YAML.read_text(encoding="utf-8")),
                                      "paper": {"file": "absent.pdf", "sha256": "b" * 64}}).encode(), None),
}


@pytest.mark.parametrize("case", BAD_SETS, ids=list(BAD_SETS))
def test_upload_errors_never_show_server_paths(case, _isolated, monkeypatch):
    monkeypatch.setenv("QUOTELOCATE_PAPERS", str(_isolated.parent / "no-papers"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(_isolated.parent / "cache"))
    set_bytes, pdf_bytes = BAD_SETS[case]
    at = upload(set_bytes, pdf_bytes)
    text = shown(at)
    assert at.error and text
    for folder in {str(_isolated), str(_isolated.resolve()), "/tmp/", "quotelocate-upload-"}:
        assert folder not in text, text


def test_public_message_names_roles_not_paths(tmp_path):
    staging = tmp_path / "quotelocate-upload-x" / "0123456789abcdef"
    with pytest.raises(DocumentError) as info:
        workbench.load_upload(staging.parent, SYNTH_YAML.read_bytes(), b"%PDF-1.4 broken")
    message = str(info.value)
    assert message.startswith("uploaded paper") and str(tmp_path) not in message
