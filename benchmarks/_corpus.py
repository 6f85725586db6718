"""The ten real papers of the shared corpus (``corpus/`` on the papers search path),
by file name; benchmarks and tests look them up with :func:`quotelocate.data.papers.find_paper`."""

CORPUS = (
    "acl2020_specter.pdf",
    "arxiv2015_influential_nodes_rotated.pdf",
    "arxiv2022_strain_sensor_elsarticle.pdf",
    "clef2008_ave_answer_validation_msword.pdf",
    "emnlp2004_monolingual_mt_paraphrase_msword.pdf",
    "ieee_tcsvt1997_disk_storage_scalable_video.pdf",
    "jcap2008_apparent_accelerations.pdf",
    "natneuro2011_ephaptic_coupling.pdf",
    "pldi2009_tracemonkey.pdf",
    "pmj2010_iron_deficiency_hpylori.pdf",
)
