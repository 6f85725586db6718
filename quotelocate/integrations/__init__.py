"""Adapters to other tools, each behind its own optional extra; nothing in the rest of the
package imports them (the command line reaches one only inside the handler that needs it).

Formats, built on the core only (they read and write documented JSON shapes, never
importing the other tool): provider citation APIs (:mod:`.anthropic`) and
LangExtract-style alignments (:mod:`.langextract`).

Test and evaluation frameworks, each needing its library:

``pytest_plugin``  the ``quotelocate_doc`` fixture (registered by the ``pytest11`` entry point);
``mlflow``         logs an evaluation as an MLflow run (``quotelocate eval --mlflow``; extra ``mlflow``);
``llamaindex``     a LlamaIndex ``BaseEvaluator`` for quotes in a response (extra ``llamaindex``);
``promptfoo``      the logic behind ``integrations/promptfoo/quotelocate_assert.py``, promptfoo's python assertion.

The pytest, promptfoo and LlamaIndex adapters check quotes through
:class:`quotelocate.verify.Verifier` (the one :func:`quotelocate.testing.shared_verifier`
returns) and hand back verdicts in the published verdict schema form
(:func:`quotelocate.verify.verdict_record`).
"""
