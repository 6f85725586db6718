"""Data: labelled quote sets (``quoteset``), the hardened YAML reader (``yaml_reader``),
where pinned papers are found and how they are fetched (``papers``), and the synthetic
paper (``synthetic``, its text in ``synthetic_content``). Needs the ``[eval]`` extra for
YAML; nothing here is imported by ``import quotelocate``."""
