"""Readers and writers for other tools' formats, built on the core only: provider
citation APIs (:mod:`.anthropic`) and LangExtract-style alignments (:mod:`.langextract`).
None of them imports the other tool; they read and write its documented JSON shapes."""
