"""atheris target: mutated PDF bytes -> Document.from_pdf_bytes -> Locator -> locate.

Run through ``fuzz/run.py`` (``make fuzz``), or by hand with libFuzzer flags::

    .venv/bin/python fuzz/fuzz_document.py -max_total_time=60 .fuzz-work/corpus/document fuzz/corpus/document

The per-input check is :func:`harness.check_document`.
"""

import sys

import atheris

with atheris.instrument_imports(include=["quotelocate", "harness"]):
    import quotelocate.diagnose  # noqa: F401  (imported lazily by the locator)
    import quotelocate.layout  # noqa: F401
    from harness import check_document, warm_up


def main() -> None:
    warm_up("document")  # once-per-process costs, before any input is timed
    atheris.Setup(sys.argv, check_document)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
