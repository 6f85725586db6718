"""Adapters for the test and evaluation frameworks people already run.

Each module here adapts quotelocate to one outside library or tool and needs that
library, installed by its own optional extra; nothing in the rest of the package
imports them:

``pytest_plugin``  the ``quotelocate_doc`` fixture (registered by the ``pytest11`` entry point);
``mlflow``         logs an evaluation as an MLflow run (``quotelocate eval --mlflow``; extra ``mlflow``);
``llamaindex``     a LlamaIndex ``BaseEvaluator`` for quotes in a response (extra ``llamaindex``);
``promptfoo``      the logic behind ``integrations/promptfoo/quotelocate_assert.py``, promptfoo's python assertion.
"""
