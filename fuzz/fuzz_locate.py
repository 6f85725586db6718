"""atheris target: a small text document, random Rules and quotes from the bytes.

Run through ``fuzz/run.py`` (``make fuzz``), or by hand with libFuzzer flags::

    .venv/bin/python fuzz/fuzz_locate.py -max_total_time=60 .fuzz-work/corpus/locate fuzz/corpus/locate

The per-input check, and the byte format, is :func:`harness.check_locate`.
"""

import sys

import atheris

with atheris.instrument_imports(include=["quotelocate", "harness"]):
    import quotelocate.diagnose  # noqa: F401  (imported lazily by the locator)
    from harness import check_locate, warm_up


def main() -> None:
    warm_up("locate")  # once-per-process costs, before any input is timed
    atheris.Setup(sys.argv, check_locate)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
