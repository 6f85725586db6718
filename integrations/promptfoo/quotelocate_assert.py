"""promptfoo python assertion: every quote in the output must be in the paper.

Use it from a promptfoo config (see promptfooconfig.yaml beside this file)::

    assert:
      - type: python
        value: file://quotelocate_assert.py
        config: {paper: 1706.03762v7.pdf}

promptfoo runs this file with the Python in $PROMPTFOO_PYTHON, which must have
quotelocate installed. The options are documented in quotelocate.integrations.promptfoo.
"""

from quotelocate.integrations.promptfoo import get_assert as _get_assert


def get_assert(output, context):
    """promptfoo's grading result {pass, score, reason, componentResults, metadata} for the quotes in ``output``."""
    return _get_assert(output, context)
