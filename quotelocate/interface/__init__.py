"""Interface: the ``quotelocate`` command line (``cli``, with the evaluation and report
commands in their own modules) and the workbench's helpers (``workbench``; the Streamlit
page itself is ``app.py`` at the top of the repository)."""
