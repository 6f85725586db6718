"""Build ``datasets/attention-v5.yaml``: labelled quotes pinned to arXiv 1706.03762v5.

Every faithful entry below holds the raw span exactly as it appears in
``Document.text`` of the v5 PDF (line breaks, form feeds, ligature glyphs, page-number
lines, interleaved footnotes or tables) next to the quote as a language model would
really write it. The script finds each raw span, derives the anchor (page, start, end,
text) and the cited chunk, and checks that

* the quote equals the raw span after a simple normalization (NFKC, straight quotes,
  the declared hyphen joins, omitted page numbers / interleaved material, collapsed
  whitespace), and that the tags match the artifacts actually present;
* every cited chunk contains its span, except ``chunk-boundary`` quotes, which cross
  the end of the cited chunk but stay inside its chunk group;
* no fabricated quote (other than ``trivial`` ones) occurs in the simply-normalized
  v5 text (both hyphen-join variants, with and without page-number lines), while the
  real sentence it was derived from does (it is a near miss); ``version-drift``
  quotes must occur in the v7 text (when the v7 PDF is available).

Run from the repository root::

    .venv/bin/python datasets/tools/build_attention_v5.py [--check]

The papers are looked up in ``$QUOTELOCATE_PAPERS`` (``os.pathsep``-separated), then
``../shared/papers`` next to the repository. ``--check`` verifies that the YAML on
disk is what the script would write, without writing it.
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from quotelocate.chunks import Chunking, group_of, make_chunks  # noqa: E402
from quotelocate.chunks import group_span as package_group_span  # noqa: E402
from quotelocate.data.papers import find_paper  # noqa: E402
from quotelocate.data.quoteset import FABRICATED_TAGS, FAITHFUL_TAGS, dump_quote_set  # noqa: E402
from quotelocate.document import Document  # noqa: E402

OUT = REPO / "datasets" / "attention-v5.yaml"
PAPER_FILE = "1706.03762v5.pdf"
PAPER_SHA256 = "dc8ec0d1decc63faa8a848d470bbeabeb060ab84b424909e84ea225ca18e720c"
PAPER_URL = "https://arxiv.org/pdf/1706.03762v5"
V7_FILE = "1706.03762v7.pdf"

CHUNK_SIZE = 512
CHUNK_OVERLAP = 64
GROUP_SIZE = 3
CHUNKING = Chunking(size=CHUNK_SIZE, overlap=CHUNK_OVERLAP, group_size=GROUP_SIZE)
STRIDE = CHUNK_SIZE - CHUNK_OVERLAP

LIGATURES = "\ufb00\ufb01\ufb02\ufb03\ufb04"
SMART_QUOTES = {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'}


# ---------------------------------------------------------------------------------
# entries
# ---------------------------------------------------------------------------------
@dataclass
class Faithful:
    id: str
    quote: str
    raw: str
    tags: list[str]
    omit: tuple[str, ...] = ()      # raw substrings a model leaves out (page numbers, floats)
    joins: tuple[str, ...] = ()     # per "-\n" in raw, in order: "keep" or "drop"
    occurrence: int | None = None   # index among several occurrences of raw
    cite: int | None | str = "auto"  # "auto": derived; None: no cited chunk
    note: str | None = None


@dataclass
class Fabricated:
    id: str
    quote: str
    tags: list[str]
    note: str
    source: str | None = None       # the real (normalized) text it is a near miss of
    source_in: str = "v5"           # "v5" or "v7"
    cite: int | None | str = "auto"


def F(id, quote, raw, tags, **kw) -> Faithful:
    return Faithful(id, quote, raw, list(tags), **kw)


def X(id, quote, tags, note, **kw) -> Fabricated:
    return Fabricated(id, quote, list(tags), note, **kw)


FAITHFUL: list[Faithful] = [
    # -- ligature glyphs (text has U+FB01 / U+FB02, the quote spells fi / fl) ----------
    F("v5-ligature-001",
      "be superior in quality while being more parallelizable and requiring significantly less time to train.",
      "be superior in quality while being more parallelizable and requiring signiﬁcantly\nless time to train.",
      ["ligature", "linebreak", "chunk-boundary"],
      note="abstract; crosses the end of chunk 1 inside group 0"),
    F("v5-ligature-002",
      "Ashish, with Illia, designed and implemented the first Transformer models and has been crucially involved in every aspect of this work.",
      "Ashish, with Illia, designed and implemented the ﬁrst Transformer models and\nhas been crucially involved in every aspect of this work.",
      ["ligature", "linebreak", "footnote"],
      note="author-contribution footnote on page 1"),
    F("v5-ligature-003",
      "Llion also experimented with novel model variants, was responsible for our initial codebase, and efficient inference and visualizations.",
      "Llion also experimented with novel model variants, was responsible for our initial codebase, and\nefﬁcient inference and visualizations.",
      ["ligature", "linebreak", "footnote"]),
    F("v5-ligature-004",
      "Recent work has achieved significant improvements in computational efficiency through factorization tricks [21] and conditional computation [32], while also improving model performance in case of the latter.",
      "Recent work has achieved\nsigniﬁcant improvements in computational efﬁciency through factorization tricks [21] and conditional\ncomputation [32], while also improving model performance in case of the latter.",
      ["ligature", "linebreak"],
      note="two ligature words in one sentence"),
    F("v5-ligature-005",
      "The Transformer allows for significantly more parallelization and can reach a new state of the art in translation quality after being trained for as little as twelve hours on eight P100 GPUs.",
      "The Transformer allows for signiﬁcantly more parallelization and can reach a new state of the art in\ntranslation quality after being trained for as little as twelve hours on eight P100 GPUs.",
      ["ligature", "linebreak", "chunk-boundary"],
      note="crosses the end of chunk 9 inside group 3"),
    F("v5-ligature-006",
      "This makes it more difficult to learn dependencies between distant positions [12].",
      "This makes\nit more difﬁcult to learn dependencies between distant positions [12].",
      ["ligature", "linebreak"]),
    F("v5-ligature-007",
      "To the best of our knowledge, however, the Transformer is the first transduction model relying entirely on self-attention to compute representations of its input and output without using sequence-aligned RNNs or convolution.",
      "To the best of our knowledge, however, the Transformer is the ﬁrst transduction model relying\nentirely on self-attention to compute representations of its input and output without using sequence-\naligned RNNs or convolution.",
      ["ligature", "linebreak", "hyphen-keep"],
      joins=("keep",)),
    F("v5-ligature-008",
      "The first is a multi-head self-attention mechanism, and the second is a simple, position-wise fully connected feed-forward network.",
      "The ﬁrst is a multi-head self-attention mechanism, and the second is a simple, position-\nwise fully connected feed-forward network.",
      ["ligature", "hyphen-keep"],
      joins=("keep",)),
    F("v5-ligature-009",
      "While the two are similar in theoretical complexity, dot-product attention is much faster and more space-efficient in practice, since it can be implemented using highly optimized matrix multiplication code.",
      "While the two are similar in theoretical complexity, dot-product attention is\nmuch faster and more space-efﬁcient in practice, since it can be implemented using highly optimized\nmatrix multiplication code.",
      ["ligature", "linebreak"]),
    F("v5-ligature-010",
      "we found it beneficial to linearly project the queries, keys and values",
      "we found it beneﬁcial to linearly project the queries, keys and values",
      ["ligature"],
      note="ends 5 characters before the end of chunk 23, which is also the end of group 7"),
    F("v5-ligature-011",
      "These are concatenated and once again projected, resulting in the final values, as depicted in Figure 2.",
      "These are concatenated and once again projected, resulting in the ﬁnal values, as\ndepicted in Figure 2.",
      ["ligature", "linebreak"],
      note="v7 moves this sentence to page 5, after footnote 4"),
    F("v5-ligature-012",
      "We need to prevent leftward information flow in the decoder to preserve the auto-regressive property.",
      "We need to prevent leftward\ninformation ﬂow in the decoder to preserve the auto-regressive property.",
      ["ligature", "linebreak", "chunk-boundary"],
      note="fl ligature; crosses the end of chunk 28 inside group 9"),
    F("v5-ligature-013",
      "There are many choices of positional encodings, learned and fixed [9].",
      "There are many choices of positional encodings,\nlearned and ﬁxed [9].",
      ["ligature", "linebreak"]),
    F("v5-ligature-014",
      "since for any fixed offset k, PEpos+k can be represented as a linear function of PEpos.",
      "since for any ﬁxed offset k, PEpos+k can be represented as a linear function of\nPEpos.",
      ["ligature", "linebreak"]),
    F("v5-ligature-015",
      "As side benefit, self-attention could yield more interpretable models. We inspect attention distributions from our models and present and discuss examples in the appendix.",
      "As side beneﬁt, self-attention could yield more interpretable models. We inspect attention distributions\nfrom our models and present and discuss examples in the appendix.",
      ["ligature", "linebreak", "chunk-boundary"],
      note="crosses the end of chunk 42 inside group 14"),
    F("v5-ligature-016",
      "For English-French, we used the significantly larger WMT 2014 English-French dataset consisting of 36M sentences and split tokens into a 32000 word-piece vocabulary [38].",
      "For English-French, we used the signiﬁcantly larger WMT\n2014 English-French dataset consisting of 36M sentences and split tokens into a 32000 word-piece\nvocabulary [38].",
      ["ligature", "linebreak"]),
    F("v5-ligature-017",
      "This corresponds to increasing the learning rate linearly for the first warmup_steps training steps, and decreasing it thereafter proportionally to the inverse square root of the step number.",
      "This corresponds to increasing the learning rate linearly for the ﬁrst warmup_steps training steps,\nand decreasing it thereafter proportionally to the inverse square root of the step number.",
      ["ligature", "linebreak", "chunk-boundary"],
      note="crosses the end of chunk 46 inside group 15"),
    F("v5-ligature-018",
      "The configuration of this model is listed in the bottom line of Table 3.",
      "The conﬁguration of this model is\nlisted in the bottom line of Table 3.",
      ["ligature", "linebreak"]),
    F("v5-ligature-019",
      "We estimate the number of floating point operations used to train a model by multiplying the training time, the number of GPUs used, and an estimate of the sustained single-precision floating-point capacity of each GPU 5.",
      "We estimate the number of ﬂoating point operations used to train a\nmodel by multiplying the training time, the number of GPUs used, and an estimate of the sustained\nsingle-precision ﬂoating-point capacity of each GPU 5.",
      ["ligature", "linebreak"],
      note="two fl ligatures; the trailing 5 is the footnote mark as extracted"),
    F("v5-ligature-020",
      "We further observe in rows (C) and (D) that, as expected, bigger models are better, and dropout is very helpful in avoiding over-fitting.",
      "We further observe in rows (C) and (D) that, as expected,\nbigger models are better, and dropout is very helpful in avoiding over-ﬁtting.",
      ["ligature", "linebreak"]),
    F("v5-ligature-021",
      "This task presents specific challenges: the output is subject to strong structural constraints and is significantly longer than the input.",
      "This task presents speciﬁc challenges: the output is subject to strong structural\n9\n\fconstraints and is signiﬁcantly longer than the input.",
      ["ligature", "linebreak", "page-number", "page-break"],
      omit=("\n9\n\f",),
      note="crosses from page 9 to page 10; the page number 9 sits between the halves"),
    F("v5-ligature-022",
      "using the larger high-confidence and BerkleyParser corpora from with approximately 17M sentences [37].",
      "using the larger high-conﬁdence and BerkleyParser corpora from with approximately 17M sentences\n[37].",
      ["ligature", "linebreak"],
      note="the paper's own wording ('from with', 'BerkleyParser') kept verbatim"),
    F("v5-ligature-023",
      "Our results in Table 4 show that despite the lack of task-specific tuning our model performs surprisingly well, yielding better results than all previously reported models with the exception of the Recurrent Neural Network Grammar [8].",
      "Our results in Table 4 show that despite the lack of task-speciﬁc tuning our model performs sur-\nprisingly well, yielding better results than all previously reported models with the exception of the\nRecurrent Neural Network Grammar [8].",
      ["ligature", "linebreak", "hyphen-drop"],
      joins=("drop",)),
    F("v5-ligature-024",
      "In this work, we presented the Transformer, the first sequence transduction model based entirely on attention, replacing the recurrent layers most commonly used in encoder-decoder architectures with multi-headed self-attention.",
      "In this work, we presented the Transformer, the ﬁrst sequence transduction model based entirely on\nattention, replacing the recurrent layers most commonly used in encoder-decoder architectures with\nmulti-headed self-attention.",
      ["ligature", "linebreak"]),
    F("v5-ligature-025",
      "For translation tasks, the Transformer can be trained significantly faster than architectures based on recurrent or convolutional layers.",
      "For translation tasks, the Transformer can be trained signiﬁcantly faster than architectures based\non recurrent or convolutional layers.",
      ["ligature", "linebreak"]),
    F("v5-ligature-026",
      "to investigate local, restricted attention mechanisms to efficiently handle large inputs and outputs such as images, audio and video.",
      "to investigate local, restricted attention mechanisms to efﬁciently handle large inputs and outputs\nsuch as images, audio and video.",
      ["ligature", "linebreak"]),
    F("v5-ligature-027",
      "Gradient flow in recurrent nets: the difficulty of learning long-term dependencies, 2001.",
      "Gradient ﬂow in\nrecurrent nets: the difﬁculty of learning long-term dependencies, 2001.",
      ["ligature", "linebreak"],
      note="reference [12]; one fl and one fi ligature"),
    F("v5-ligature-028",
      "Dropout: a simple way to prevent neural networks from overfitting.",
      "Dropout: a simple way to prevent neural networks from overﬁtting.",
      ["ligature"],
      note="reference [33]"),
    F("v5-ligature-029",
      "Ofir Press and Lior Wolf. Using the output embedding to improve language models.",
      "Oﬁr Press and Lior Wolf. Using the output embedding to improve language models.",
      ["ligature"],
      note="reference [30]; ligature inside a person's name"),
    # -- chunk boundaries (span crosses the end of the cited chunk, stays in its group)
    F("v5-boundary-001",
      "The dominant sequence transduction models are based on complex recurrent or convolutional neural networks that include an encoder and a decoder.",
      "The dominant sequence transduction models are based on complex recurrent or\nconvolutional neural networks that include an encoder and a decoder.",
      ["linebreak", "chunk-boundary"],
      note="crosses the end of chunk 0 inside group 0"),
    F("v5-boundary-002",
      "That is, the output of each sub-layer is LayerNorm(x + Sublayer(x)), where Sublayer(x) is the function implemented by the sub-layer itself.",
      "That is, the output of each sub-layer is\nLayerNorm(x + Sublayer(x)), where Sublayer(x) is the function implemented by the sub-layer\nitself.",
      ["linebreak", "chunk-boundary"],
      note="crosses the end of chunk 16 inside group 5"),
    F("v5-boundary-003",
      "In this section we compare various aspects of self-attention layers to the recurrent and convolutional layers commonly used for mapping one variable-length sequence of symbol representations (x1, ..., xn) to another sequence of equal length (z1, ..., zn)",
      "In this section we compare various aspects of self-attention layers to the recurrent and convolu-\ntional layers commonly used for mapping one variable-length sequence of symbol representations\n(x1, ..., xn) to another sequence of equal length (z1, ..., zn)",
      ["linebreak", "hyphen-drop", "chunk-boundary"],
      joins=("drop",),
      note="crosses the end of chunk 36 inside group 12"),
    F("v5-boundary-004",
      "We trained on the standard WMT 2014 English-German dataset consisting of about 4.5 million sentence pairs.",
      "We trained on the standard WMT 2014 English-German dataset consisting of about 4.5 million\nsentence pairs.",
      ["linebreak", "chunk-boundary"],
      note="crosses the end of chunk 43 (between '4.5' and 'million') inside group 14"),
    F("v5-boundary-005",
      "On both WMT 2014 English-to-German and WMT 2014 English-to-French translation tasks, we achieve a new state of the art.",
      "On both WMT 2014 English-to-German and WMT 2014\nEnglish-to-French translation tasks, we achieve a new state of the art.",
      ["linebreak", "chunk-boundary"],
      note="crosses the end of chunk 64 inside group 21"),
    # -- end-of-line hyphens -----------------------------------------------------------
    F("v5-hyphen-001",
      "Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task",
      "Our model achieves 28.4 BLEU on the WMT 2014 English-\nto-German translation task",
      ["hyphen-keep"],
      joins=("keep",)),
    F("v5-hyphen-002",
      "Attention mechanisms have become an integral part of compelling sequence modeling and transduction models in various tasks, allowing modeling of dependencies without regard to their distance in the input or output sequences",
      "Attention mechanisms have become an integral part of compelling sequence modeling and transduc-\ntion models in various tasks, allowing modeling of dependencies without regard to their distance in\nthe input or output sequences",
      ["linebreak", "hyphen-drop"],
      joins=("drop",),
      note="stops before the marker [2, 19] so that the span stays inside chunk 8 / group 2"),
    F("v5-hyphen-003",
      "End-to-end memory networks are based on a recurrent attention mechanism instead of sequence-aligned recurrence and have been shown to perform well on simple-language question answering and language modeling tasks [34].",
      "End-to-end memory networks are based on a recurrent attention mechanism instead of sequence-\naligned recurrence and have been shown to perform well on simple-language question answering and\nlanguage modeling tasks [34].",
      ["linebreak", "hyphen-keep"],
      joins=("keep",)),
    F("v5-hyphen-004",
      "The two most commonly used attention functions are additive attention [2], and dot-product (multiplicative) attention.",
      "The two most commonly used attention functions are additive attention [2], and dot-product (multi-\nplicative) attention.",
      ["hyphen-drop"],
      joins=("drop",)),
    F("v5-hyphen-005",
      "We also use the usual learned linear transformation and softmax function to convert the decoder output to predicted next-token probabilities.",
      "We also use the usual learned linear transfor-\nmation and softmax function to convert the decoder output to predicted next-token probabilities.",
      ["hyphen-drop"],
      joins=("drop",)),
    F("v5-hyphen-006",
      "Sentences were encoded using byte-pair encoding [3], which has a shared source-target vocabulary of about 37000 tokens.",
      "Sentences were encoded using byte-pair encoding [3], which has a shared source-\ntarget vocabulary of about 37000 tokens.",
      ["hyphen-keep"],
      joins=("keep",)),
    F("v5-hyphen-007",
      "Deep residual learning for image recognition. In Proceedings of the IEEE Conference on Computer Vision and Pattern Recognition, pages 770–778, 2016.",
      "Deep residual learning for im-\nage recognition. In Proceedings of the IEEE Conference on Computer Vision and Pattern\nRecognition, pages 770–778, 2016.",
      ["linebreak", "hyphen-drop"],
      joins=("drop",),
      note="reference [11]; the en dash in 770–778 is kept as in the text"),
    F("v5-hyphen-008",
      "Effective approaches to attention-based neural machine translation.",
      "Effective approaches to attention-\nbased neural machine translation.",
      ["hyphen-keep"],
      joins=("keep",),
      note="reference [24]"),
    # -- line breaks only --------------------------------------------------------------
    F("v5-linebreak-001",
      "Self-attention, sometimes called intra-attention is an attention mechanism relating different positions of a single sequence in order to compute a representation of the sequence.",
      "Self-attention, sometimes called intra-attention is an attention mechanism relating different positions\nof a single sequence in order to compute a representation of the sequence.",
      ["linebreak"]),
    F("v5-linebreak-002",
      "Multi-head attention allows the model to jointly attend to information from different representation subspaces at different positions.",
      "Multi-head attention allows the model to jointly attend to information from different representation\nsubspaces at different positions.",
      ["linebreak"],
      note="first sentence of page 5 in v5 (v7 puts other text before it)"),
    F("v5-linebreak-003",
      "The fundamental constraint of sequential computation, however, remains.",
      "The fundamental\nconstraint of sequential computation, however, remains.",
      ["linebreak"]),
    # -- page breaks -------------------------------------------------------------------
    F("v5-page-001",
      "To improve computational performance for tasks involving very long sequences, self-attention could be restricted to considering only a neighborhood of size r in the input sequence centered around the respective output position.",
      "To improve computational performance for tasks involving\nvery long sequences, self-attention could be restricted to considering only a neighborhood of size r in\n6\n\fthe input sequence centered around the respective output position.",
      ["linebreak", "page-number", "page-break"],
      omit=("\n6\n\f",),
      note="v5 breaks this sentence across pages 6-7 (v7 does not); page number 6 in between"),
    F("v5-page-002",
      "Recurrent neural networks, long short-term memory [13] and gated recurrent [7] neural networks in particular, have been firmly established as state of the art approaches in sequence modeling and transduction problems such as language modeling and machine translation [35, 2, 5].",
      "Recurrent neural networks, long short-term memory [13] and gated recurrent [7] neural networks\nin particular, have been ﬁrmly established as state of the art approaches in sequence modeling and\n∗Equal contribution. Listing order is random. Jakob proposed replacing RNNs with self-attention and started\nthe effort to evaluate this idea. Ashish, with Illia, designed and implemented the ﬁrst Transformer models and\nhas been crucially involved in every aspect of this work. Noam proposed scaled dot-product attention, multi-head\nattention and the parameter-free position representation and became the other person involved in nearly every\ndetail. Niki designed, implemented, tuned and evaluated countless model variants in our original codebase and\ntensor2tensor. Llion also experimented with novel model variants, was responsible for our initial codebase, and\nefﬁcient inference and visualizations. Lukasz and Aidan spent countless long days designing various parts of and\nimplementing tensor2tensor, replacing our earlier codebase, greatly improving results and massively accelerating\nour research.\n†Work performed while at Google Brain.\n‡Work performed while at Google Research.\n31st Conference on Neural Information Processing Systems (NIPS 2017), Long Beach, CA, USA.\narXiv:1706.03762v5  [cs.CL]  6 Dec 2017\n\ftransduction problems such as language modeling and machine translation [35, 2, 5].",
      ["ligature", "linebreak", "page-break", "float-interleave", "footnote", "margin-stamp"],
      omit=("\n∗Equal contribution. Listing order is random. Jakob proposed replacing RNNs with self-attention and started\nthe effort to evaluate this idea. Ashish, with Illia, designed and implemented the ﬁrst Transformer models and\nhas been crucially involved in every aspect of this work. Noam proposed scaled dot-product attention, multi-head\nattention and the parameter-free position representation and became the other person involved in nearly every\ndetail. Niki designed, implemented, tuned and evaluated countless model variants in our original codebase and\ntensor2tensor. Llion also experimented with novel model variants, was responsible for our initial codebase, and\nefﬁcient inference and visualizations. Lukasz and Aidan spent countless long days designing various parts of and\nimplementing tensor2tensor, replacing our earlier codebase, greatly improving results and massively accelerating\nour research.\n†Work performed while at Google Brain.\n‡Work performed while at Google Research.\n31st Conference on Neural Information Processing Systems (NIPS 2017), Long Beach, CA, USA.\narXiv:1706.03762v5  [cs.CL]  6 Dec 2017\n\f",),
      cite=None,
      note="v5 emits the page-1 footnotes, the venue line and the arXiv stamp between "
           "'sequence modeling and' (page 1) and 'transduction problems' (page 2); v7 keeps "
           "the sentence whole on page 2. The span (1394 chars) fits no chunk group, so no "
           "chunk is cited"),
    F("v5-page-003",
      "Since our model contains no recurrence and no convolution, in order for the model to make use of the order of the sequence, we must inject some information about the relative or absolute position of the tokens in the sequence.",
      "Since our model contains no recurrence and no convolution, in order for the model to make use of the\norder of the sequence, we must inject some information about the relative or absolute position of the\n5\n\fTable 1: Maximum path lengths, per-layer complexity and minimum number of sequential operations\nfor different layer types. n is the sequence length, d is the representation dimension, k is the kernel\nsize of convolutions and r the size of the neighborhood in restricted self-attention.\nLayer Type\nComplexity per Layer\nSequential\nMaximum Path Length\nOperations\nSelf-Attention\nO(n2 · d)\nO(1)\nO(1)\nRecurrent\nO(n · d2)\nO(n)\nO(n)\nConvolutional\nO(k · n · d2)\nO(1)\nO(logk(n))\nSelf-Attention (restricted)\nO(r · n · d)\nO(1)\nO(n/r)\ntokens in the sequence.",
      ["linebreak", "page-number", "page-break", "float-interleave", "table"],
      omit=("\n5\n\fTable 1: Maximum path lengths, per-layer complexity and minimum number of sequential operations\nfor different layer types. n is the sequence length, d is the representation dimension, k is the kernel\nsize of convolutions and r the size of the neighborhood in restricted self-attention.\nLayer Type\nComplexity per Layer\nSequential\nMaximum Path Length\nOperations\nSelf-Attention\nO(n2 · d)\nO(1)\nO(1)\nRecurrent\nO(n · d2)\nO(n)\nO(n)\nConvolutional\nO(k · n · d2)\nO(1)\nO(logk(n))\nSelf-Attention (restricted)\nO(r · n · d)\nO(1)\nO(n/r)\n",),
      cite=None,
      note="v5 emits page number 5 and all of Table 1 (page 6) between 'position of the' "
           "and 'tokens in the sequence.'; v7 keeps the sentence whole. The span (751 chars) "
           "fits no chunk group, so no chunk is cited"),
    # -- smart quotes --------------------------------------------------------------------
    F("v5-smart-quote-001",
      "Many of the attention heads attend to a distant dependency of the verb 'making', completing the phrase 'making...more difficult'.",
      "Many of the attention heads attend to a distant dependency of\nthe verb ‘making’, completing the phrase ‘making...more difﬁcult’.",
      ["smart-quote", "ligature", "linebreak", "caption"],
      note="Figure 3 caption: curly single quotes and an fi ligature"),
    F("v5-smart-quote-002",
      "Bottom: Isolated attentions from just the word 'its' for attention heads 5 and 6.",
      "Bottom: Isolated attentions from just the word ‘its’ for attention heads 5\nand 6.",
      ["smart-quote", "linebreak", "caption"],
      note="Figure 4 caption"),
    F("v5-smart-quote-003",
      "Google's neural machine translation system: Bridging the gap between human and machine translation.",
      "Google’s neural machine\ntranslation system: Bridging the gap between human and machine translation.",
      ["smart-quote", "linebreak"],
      note="reference [38]; U+2019 apostrophe"),
    # -- NFKC-foldable characters other than ligatures --------------------------------
    F("v5-nfkc-001",
      "We used the Adam optimizer [20] with β1 = 0.9, β2 = 0.98 and ε = 10−9.",
      "We used the Adam optimizer [20] with β1 = 0.9, β2 = 0.98 and ϵ = 10−9.",
      ["nfkc"],
      note="text has U+03F5 (lunate epsilon), the quote the plain Greek epsilon U+03B5; "
           "U+2212 minus kept as extracted"),
    F("v5-nfkc-002",
      "During training, we employed label smoothing of value εls = 0.1 [36].",
      "During training, we employed label smoothing of value ϵls = 0.1 [36].",
      ["nfkc"],
      note="U+03F5 in the text, U+03B5 in the quote"),
    # -- plain (one line, no artifact) -------------------------------------------------
    F("v5-plain-001",
      "This section describes the training regime for our models.",
      "This section describes the training regime for our models.",
      ["plain"]),
    F("v5-plain-002",
      "With a single attention head, averaging inhibits this.",
      "With a single attention head, averaging inhibits this.",
      ["plain"]),
    F("v5-plain-003",
      "Another way of describing this is as two convolutions with kernel size 1.",
      "Another way of describing this is as two convolutions with kernel size 1.",
      ["plain"]),
    F("v5-plain-004",
      'We call our particular attention "Scaled Dot-Product Attention" (Figure 2).',
      'We call our particular attention "Scaled Dot-Product Attention" (Figure 2).',
      ["plain"],
      note="straight double quotes in the text itself"),
    F("v5-plain-005",
      "Training took 3.5 days on 8 P100 GPUs.",
      "Training took 3.5 days on 8 P100 GPUs.",
      ["plain"]),
    F("v5-plain-006",
      "For the big models, we averaged the last 20 checkpoints.",
      "For the big models, we averaged the last 20 checkpoints.",
      ["plain"]),
]


FABRICATED: list[Fabricated] = [
    # -- version drift: text of v7 that v5 does not have -------------------------------
    X("v5-fab-version-drift-001",
      "Provided proper attribution is provided, Google hereby grants permission to reproduce the tables and figures in this paper solely for use in journalistic or scholarly works.",
      ["version-drift"],
      "v7's page-1 permission header; absent from v5",
      source="Provided proper attribution is provided, Google hereby grants permission to reproduce the tables and figures in this paper solely for use in journalistic or scholarly works.",
      source_in="v7", cite=0),
    X("v5-fab-version-drift-002",
      "Google hereby grants permission to reproduce the tables and figures in this paper solely for use in journalistic or scholarly works.",
      ["version-drift"],
      "second half of v7's permission header ('Google hereby grants permission ...'); absent from v5",
      source="Google hereby grants permission to reproduce the tables and figures in this paper solely for use in journalistic or scholarly works.",
      source_in="v7", cite=0),
    X("v5-fab-version-drift-003",
      "Provided proper attribution is provided, Google hereby grants permission to reproduce the tables and figures in this paper",
      ["version-drift"],
      "first part of v7's permission header; absent from v5",
      source="Provided proper attribution is provided, Google hereby grants permission to reproduce the tables and figures in this paper",
      source_in="v7", cite=0),
    X("v5-fab-version-drift-004",
      "reproduce the tables and figures in this paper solely for use in journalistic or scholarly works",
      ["version-drift"],
      "fragment of v7's permission header; absent from v5",
      source="reproduce the tables and figures in this paper solely for use in journalistic or scholarly works",
      source_in="v7", cite=0),
    X("v5-fab-version-drift-005",
      "scholarly works. Attention Is All You Need",
      ["version-drift"],
      "v7 reads '... journalistic or scholarly works. Attention Is All You Need' (header then title); v5 starts with the title",
      source="scholarly works. Attention Is All You Need",
      source_in="v7", cite=0),
    X("v5-fab-version-drift-006",
      "arXiv:1706.03762v7 [cs.CL] 2 Aug 2023",
      ["version-drift"],
      "v7's arXiv stamp; v5's reads 'arXiv:1706.03762v5 [cs.CL] 6 Dec 2017'",
      source="arXiv:1706.03762v7 [cs.CL] 2 Aug 2023",
      source_in="v7"),
    X("v5-fab-version-drift-007",
      "31st Conference on Neural Information Processing Systems (NIPS 2017), Long Beach, CA, USA. arXiv:1706.03762v7 [cs.CL] 2 Aug 2023",
      ["version-drift"],
      "venue line followed by v7's stamp 'arXiv:1706.03762v7 [cs.CL] 2 Aug 2023'; v5 has the v5 stamp there",
      source="31st Conference on Neural Information Processing Systems (NIPS 2017), Long Beach, CA, USA. arXiv:1706.03762v7 [cs.CL] 2 Aug 2023",
      source_in="v7"),
    X("v5-fab-version-drift-008",
      "[cs.CL] 2 Aug 2023",
      ["version-drift"],
      "date of v7's stamp '[cs.CL] 2 Aug 2023'; v5 was stamped 6 Dec 2017",
      source="[cs.CL] 2 Aug 2023",
      source_in="v7"),
    X("v5-fab-version-drift-009",
      "Google hereby grants permission to reproduce the tables and figures in this paper",
      ["version-drift"],
      "clause of v7's permission header; absent from v5",
      source="Google hereby grants permission to reproduce the tables and figures in this paper",
      source_in="v7", cite=0),
    # -- numbers ----------------------------------------------------------------------
    X("v5-fab-number-001",
      "Our model achieves 28.9 BLEU on the WMT 2014 English-to-German translation task",
      ["number"], "28.4 changed to 28.9",
      source="Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task"),
    X("v5-fab-number-002",
      "our model establishes a new single-model state-of-the-art BLEU score of 41.0 after training for 3.5 days on eight GPUs",
      ["number"], "the abstract says 41.8; 41.0 is the figure of section 6.1, not of this sentence",
      source="our model establishes a new single-model state-of-the-art BLEU score of 41.8 after training for 3.5 days on eight GPUs"),
    X("v5-fab-number-003",
      "The encoder is composed of a stack of N = 8 identical layers.",
      ["number"], "N = 6 changed to N = 8",
      source="The encoder is composed of a stack of N = 6 identical layers."),
    X("v5-fab-number-004",
      "We used warmup_steps = 8000.",
      ["number"], "4000 changed to 8000",
      source="We used warmup_steps = 4000."),
    X("v5-fab-number-005",
      "For the big models, we averaged the last 10 checkpoints.",
      ["number"], "20 checkpoints changed to 10",
      source="For the big models, we averaged the last 20 checkpoints."),
    # -- case ---------------------------------------------------------------------------
    X("v5-fab-case-001",
      "We propose a new simple network architecture, the transformer, based solely on attention mechanisms, dispensing with recurrence and convolutions entirely.",
      ["case"], "'Transformer' lower-cased",
      source="We propose a new simple network architecture, the Transformer, based solely on attention mechanisms, dispensing with recurrence and convolutions entirely."),
    X("v5-fab-case-002",
      "Attention is all you need",
      ["case"], "title 'Attention Is All You Need' in sentence case",
      source="Attention Is All You Need"),
    X("v5-fab-case-003",
      'We call our particular attention "scaled dot-product attention" (Figure 2).',
      ["case"], "'Scaled Dot-Product Attention' lower-cased",
      source='We call our particular attention "Scaled Dot-Product Attention" (Figure 2).'),
    X("v5-fab-case-004",
      "We trained on the standard wmt 2014 English-German dataset consisting of about 4.5 million sentence pairs.",
      ["case"], "'WMT' lower-cased",
      source="We trained on the standard WMT 2014 English-German dataset consisting of about 4.5 million sentence pairs."),
    # -- negation -----------------------------------------------------------------------
    X("v5-fab-negation-001",
      "Furthermore, RNN sequence-to-sequence models have been able to attain state-of-the-art results in small-data regimes [37].",
      ["negation"], "'have not been able' turned into 'have been able'",
      source="Furthermore, RNN sequence-to-sequence models have not been able to attain state-of-the-art results in small-data regimes [37]."),
    X("v5-fab-negation-002",
      "bigger models are better, and dropout is not very helpful in avoiding over-fitting.",
      ["negation"], "'not' inserted",
      source="bigger models are better, and dropout is very helpful in avoiding over-fitting."),
    X("v5-fab-negation-003",
      "This inherently sequential nature does not preclude parallelization within training examples",
      ["negation"], "'precludes' turned into 'does not preclude'",
      source="This inherently sequential nature precludes parallelization within training examples"),
    X("v5-fab-negation-004",
      "In the Transformer this is not reduced to a constant number of operations",
      ["negation"], "'not' inserted",
      source="In the Transformer this is reduced to a constant number of operations"),
    # -- dropped citation markers -----------------------------------------------------
    X("v5-fab-marker-dropped-001",
      "Recurrent neural networks, long short-term memory and gated recurrent neural networks in particular, have been firmly established as state of the art approaches in sequence modeling",
      ["marker-dropped"], "markers [13] and [7] removed",
      source="Recurrent neural networks, long short-term memory [13] and gated recurrent [7] neural networks in particular, have been firmly established as state of the art approaches in sequence modeling"),
    X("v5-fab-marker-dropped-002",
      "The goal of reducing sequential computation also forms the foundation of the Extended Neural GPU, ByteNet and ConvS2S, all of which use convolutional neural networks as basic building block",
      ["marker-dropped"], "markers [16], [18] and [9] removed",
      source="The goal of reducing sequential computation also forms the foundation of the Extended Neural GPU [16], ByteNet [18] and ConvS2S [9], all of which use convolutional neural networks as basic building block"),
    X("v5-fab-marker-dropped-003",
      "We employ a residual connection around each of the two sub-layers, followed by layer normalization.",
      ["marker-dropped"], "markers [11] and [1] removed",
      source="We employ a residual connection [11] around each of the two sub-layers, followed by layer normalization [1]."),
    X("v5-fab-marker-dropped-004",
      "we employed label smoothing of value εls = 0.1. This hurts perplexity, as the model learns to be more unsure, but improves accuracy and BLEU score.",
      ["marker-dropped"], "marker [36] removed",
      source="we employed label smoothing of value εls = 0.1 [36]. This hurts perplexity, as the model learns to be more unsure, but improves accuracy and BLEU score."),
    # -- word swaps -------------------------------------------------------------------
    X("v5-fab-word-swap-001",
      "Here, the decoder maps an input sequence of symbol representations (x1, ..., xn) to a sequence of continuous representations z = (z1, ..., zn).",
      ["word-swap"], "'encoder' swapped for 'decoder'",
      source="Here, the encoder maps an input sequence of symbol representations (x1, ..., xn) to a sequence of continuous representations z = (z1, ..., zn)."),
    X("v5-fab-word-swap-002",
      "Convolutional layers are generally less expensive than recurrent layers, by a factor of k.",
      ["word-swap"], "'more expensive' swapped for 'less expensive'",
      source="Convolutional layers are generally more expensive than recurrent layers, by a factor of k."),
    X("v5-fab-word-swap-003",
      "In our model, we share the same weight matrix between the two embedding layers and the post-softmax linear transformation, similar to [30].",
      ["word-swap"], "'pre-softmax' swapped for 'post-softmax'",
      source="In our model, we share the same weight matrix between the two embedding layers and the pre-softmax linear transformation, similar to [30]."),
    # -- a ligature word replaced by another word ---------------------------------------
    X("v5-fab-ligature-swap-001",
      "be superior in quality while being more parallelizable and requiring slightly less time to train.",
      ["word-swap"], "ligature word 'signiﬁcantly' (significantly) replaced by 'slightly'",
      source="be superior in quality while being more parallelizable and requiring significantly less time to train."),
    X("v5-fab-ligature-swap-002",
      "we found it necessary to linearly project the queries, keys and values",
      ["word-swap"], "ligature word 'beneﬁcial' (beneficial) replaced by 'necessary'",
      source="we found it beneficial to linearly project the queries, keys and values"),
    X("v5-fab-ligature-swap-003",
      "The Transformer allows for substantially more parallelization and can reach a new state of the art in translation quality",
      ["word-swap"], "ligature word 'signiﬁcantly' (significantly) replaced by 'substantially'",
      source="The Transformer allows for significantly more parallelization and can reach a new state of the art in translation quality"),
    X("v5-fab-ligature-swap-004",
      "dot-product attention is much faster and more memory-efficient in practice",
      ["word-swap"], "ligature word 'space-efﬁcient' (space-efficient) replaced by 'memory-efficient'",
      source="dot-product attention is much faster and more space-efficient in practice"),
    # -- Cyrillic look-alike letters ----------------------------------------------------
    X("v5-fab-lookalike-001",
      "The Transformer allows f\u043er significantly more parallelization",
      ["lookalike"], "Cyrillic U+043E 'о' in 'for'",
      source="The Transformer allows for significantly more parallelization"),
    X("v5-fab-lookalike-002",
      "\u0410ttention Is All You Need",
      ["lookalike"], "Cyrillic U+0410 'А' as the first letter of the title",
      source="Attention Is All You Need"),
    X("v5-fab-lookalike-003",
      "We trained on the standard WMT 2014 English-German dataset consisting of about 4.5 million sent\u0435nce pairs.",
      ["lookalike"], "Cyrillic U+0435 'е' in 'sentence'",
      source="We trained on the standard WMT 2014 English-German dataset consisting of about 4.5 million sentence pairs."),
    X("v5-fab-lookalike-004",
      "Multi-head attention allows the m\u043edel to jointly attend to information from different representation subspaces at different positions.",
      ["lookalike"], "Cyrillic U+043E 'о' in 'model'",
      source="Multi-head attention allows the model to jointly attend to information from different representation subspaces at different positions."),
    # -- trivial ------------------------------------------------------------------------
    X("v5-fab-trivial-001", "", ["trivial"], "empty quote", cite=None),
    X("v5-fab-trivial-002", "   \n\t ", ["trivial"], "whitespace only", cite=None),
    X("v5-fab-trivial-003", "the", ["trivial"], "three letters; occurs everywhere, supports nothing", cite=None),
    X("v5-fab-trivial-004", "and", ["trivial"], "three letters; occurs everywhere, supports nothing", cite=None),
    # -- splices ------------------------------------------------------------------------
    X("v5-fab-splice-001",
      "Our model achieves 28.4 BLEU on the WMT 2014 English-to-French translation task",
      ["splice"], "the 28.4 BLEU clause (English-to-German) joined to the English-to-French task",
      source="Our model achieves 28.4 BLEU on the WMT 2014 English-to-German translation task"),
    X("v5-fab-splice-002",
      "We trained the base models for a total of 100,000 steps or 3.5 days.",
      ["splice"], "base-model steps joined to the big models' 3.5 days (the text says 12 hours)",
      source="We trained the base models for a total of 100,000 steps or 12 hours."),
    # -- paraphrases --------------------------------------------------------------------
    X("v5-fab-paraphrase-001",
      "The Transformer is based solely on attention mechanisms and dispenses with recurrence and convolutions entirely.",
      ["paraphrase"], "paraphrase of the abstract's 'the Transformer, based solely on attention mechanisms, dispensing with ...'",
      source="the Transformer, based solely on attention mechanisms, dispensing with recurrence and convolutions entirely."),
    X("v5-fab-paraphrase-002",
      "Dot-product attention is much faster and more space-efficient in practice because it can be implemented with highly optimized matrix multiplication code.",
      ["paraphrase"], "'since it can be implemented using' reworded",
      source="dot-product attention is much faster and more space-efficient in practice, since it can be implemented using highly optimized matrix multiplication code."),
    # -- invented tails -----------------------------------------------------------------
    X("v5-fab-invented-tail-001",
      "We plan to investigate this approach further in future work, including applications to speech recognition.",
      ["invented-tail"], "real sentence with an invented continuation",
      source="We plan to investigate this approach further in future work."),
    X("v5-fab-invented-tail-002",
      "Training took 3.5 days on 8 P100 GPUs, at a total cost of about $10,000.",
      ["invented-tail"], "real sentence with an invented cost",
      source="Training took 3.5 days on 8 P100 GPUs."),
    X("v5-fab-invented-tail-003",
      "The Transformer (big) model trained for English-to-French used dropout rate Pdrop = 0.1, instead of 0.3, which improved BLEU by 0.5.",
      ["invented-tail"], "real sentence with an invented result",
      source="The Transformer (big) model trained for English-to-French used dropout rate Pdrop = 0.1, instead of 0.3."),
    # -- punctuation ----------------------------------------------------------------------
    X("v5-fab-punctuation-001",
      "Given z the decoder then generates an output sequence (y1, ..., ym) of symbols one element at a time.",
      ["punctuation"], "comma after 'Given z' dropped",
      source="Given z, the decoder then generates an output sequence (y1, ..., ym) of symbols one element at a time."),
    X("v5-fab-punctuation-002",
      "This task presents specific challenges; the output is subject to strong structural constraints and is significantly longer than the input.",
      ["punctuation"], "colon changed to a semicolon",
      source="This task presents specific challenges: the output is subject to strong structural constraints and is significantly longer than the input."),
    # -- words missing / added ------------------------------------------------------------
    X("v5-fab-word-missing-001",
      "after being trained for as little as twelve hours on P100 GPUs.",
      ["word-missing"], "'eight' dropped",
      source="after being trained for as little as twelve hours on eight P100 GPUs."),
    X("v5-fab-word-added-001",
      "We propose a new simple network architecture, the Transformer, based solely on self-attention mechanisms",
      ["word-added"], "'self-' added before 'attention mechanisms'",
      source="We propose a new simple network architecture, the Transformer, based solely on attention mechanisms"),
]


# ---------------------------------------------------------------------------------
# normalization used by the self-checks (deliberately simple)
# ---------------------------------------------------------------------------------
def _fold_char(ch: str) -> str:
    ch = SMART_QUOTES.get(ch, ch)
    return unicodedata.normalize("NFKC", ch)


def simple_normalize(s: str, joins: str | tuple[str, ...] = "drop") -> str:
    """NFKC, straight quotes, hyphen joins, collapsed whitespace.

    ``joins`` is "drop" or "keep" for every end-of-line hyphen, or one value per
    ``-\\n`` in order.
    """
    text, _ = normalize_with_map(s, joins)
    return text


def normalize_with_map(s: str, joins: str | tuple[str, ...] = "drop") -> tuple[str, list[int]]:
    out: list[str] = []
    where: list[int] = []
    hyphen_no = 0
    i, n = 0, len(s)
    pending_space = False
    while i < n:
        ch = s[i]
        if ch == "-" and i + 1 < n and s[i + 1] == "\n":
            mode = joins if isinstance(joins, str) else joins[hyphen_no]
            hyphen_no += 1
            if mode == "keep":
                if pending_space and out:
                    out.append(" ")
                    where.append(i)
                pending_space = False
                out.append("-")
                where.append(i)
            # the newline (and any whitespace after it) is swallowed
            i += 2
            while i < n and s[i].isspace():
                i += 1
            continue
        if ch.isspace():
            pending_space = True
            i += 1
            continue
        if pending_space and out:
            out.append(" ")
            where.append(i)
        pending_space = False
        for c in _fold_char(ch):
            out.append(c)
            where.append(i)
        i += 1
    if not isinstance(joins, str):
        assert hyphen_no == len(joins), f"{hyphen_no} hyphen breaks, {len(joins)} joins given"
    return "".join(out), where


PAGE_NUMBER_LINE = re.compile(r"\n\d{1,3}\n\f")


def normalized_views(text: str) -> list[str]:
    """Both hyphen-join variants, with and without page-number lines at page ends."""
    no_pn = PAGE_NUMBER_LINE.sub("\n\f", text)
    return [simple_normalize(t, j) for t in (text, no_pn) for j in ("drop", "keep")]


# ---------------------------------------------------------------------------------
# chunks
# ---------------------------------------------------------------------------------
@functools.cache
def _chunks(text_len: int) -> tuple:
    """The package's chunks of a text of this length (chunk bounds depend on nothing else)."""
    return make_chunks(" " * text_len, CHUNKING)


def chunk_span(i: int, text_len: int) -> tuple[int, int]:
    c = _chunks(text_len)[i]
    return c.start, c.end


def group_count(text_len: int) -> int:
    return group_of(len(_chunks(text_len)) - 1, GROUP_SIZE) + 1


def group_span(g: int, text_len: int) -> tuple[int, int]:
    return package_group_span(_chunks(text_len), g, GROUP_SIZE)


def chunks_containing(start: int, end: int, text_len: int) -> list[int]:
    return [c.index for c in _chunks(text_len) if c.start <= start and end <= c.end]


# ---------------------------------------------------------------------------------
# build
# ---------------------------------------------------------------------------------
# the tag vocabulary is the loader's (quotelocate.data.quoteset)
ID_RE = re.compile(r"^[A-Za-z0-9._-]+$")


class BuildError(Exception):
    pass


def _fail(qid: str, msg: str) -> None:
    raise BuildError(f"{qid}: {msg}")


def locate(text: str, e: Faithful) -> int:
    hits = []
    pos = text.find(e.raw)
    while pos >= 0:
        hits.append(pos)
        pos = text.find(e.raw, pos + 1)
    if not hits:
        # help the editor: show where the first 30 characters are
        head = e.raw[:30]
        near = text.find(head)
        ctx = repr(text[near:near + len(e.raw) + 20]) if near >= 0 else "(start not found either)"
        _fail(e.id, f"raw snippet not found in the document text; near: {ctx}")
    if e.occurrence is None:
        if len(hits) > 1:
            _fail(e.id, f"raw snippet occurs {len(hits)} times at {hits}; set occurrence")
        return hits[0]
    if e.occurrence >= len(hits):
        _fail(e.id, f"occurrence {e.occurrence} requested, only {len(hits)} found")
    return hits[e.occurrence]


def check_faithful_tags(e: Faithful, raw_kept: str) -> None:
    tags = set(e.tags)
    raw = e.raw
    def need(cond: bool, tag: str) -> None:
        if cond and tag not in tags:
            _fail(e.id, f"artifact present but tag {tag!r} missing")
        if not cond and tag in tags:
            _fail(e.id, f"tag {tag!r} given but the artifact is absent")
    need(any(c in raw for c in LIGATURES), "ligature")
    need(any(c in raw for c in SMART_QUOTES), "smart-quote")
    need(any(c not in LIGATURES and unicodedata.normalize("NFKC", c) != c for c in raw), "nfkc")
    need("\f" in raw, "page-break")
    need("keep" in e.joins, "hyphen-keep")
    need("drop" in e.joins, "hyphen-drop")
    need(any(PAGE_NUMBER_LINE.search(o) or re.fullmatch(r"\n\d{1,3}\n\f", o) for o in e.omit), "page-number")
    # a line break that is not an end-of-line hyphen, in the part the quote keeps
    need(bool(re.search(r"(?<!-)\n", raw_kept)), "linebreak")
    if "plain" in tags:
        if len(tags) != 1 or raw != e.quote:
            _fail(e.id, "'plain' must stand alone and the raw span must equal the quote")
    elif raw == e.quote:
        _fail(e.id, "raw span equals the quote: tag it 'plain'")
    if "float-interleave" in tags and not e.omit:
        _fail(e.id, "'float-interleave' without omitted material")


def build_faithful(doc: Document, e: Faithful) -> dict:
    text = doc.text
    if not ID_RE.match(e.id):
        _fail(e.id, "bad id")
    unknown = set(e.tags) - set(FAITHFUL_TAGS)
    if unknown:
        _fail(e.id, f"unknown faithful tags {sorted(unknown)}")
    start = locate(text, e)
    end = start + len(e.raw)
    assert text[start:end] == e.raw

    # what the model keeps of the raw span
    kept = e.raw
    for o in e.omit:
        if kept.count(o) != 1:
            _fail(e.id, f"omitted material must occur exactly once in the raw span: {o[:40]!r}")
        kept = kept.replace(o, "\n")
    expected = simple_normalize(kept, e.joins if e.joins else "drop")
    if not e.joins and "-\n" in kept:
        _fail(e.id, "raw span has an end-of-line hyphen; declare joins")
    if e.quote != expected:
        _fail(e.id, f"quote differs from the normalized raw span:\n  quote:    {e.quote!r}\n  expected: {expected!r}")
    if e.quote != e.quote.strip() or not e.quote:
        _fail(e.id, "quote has leading/trailing whitespace or is empty")
    check_faithful_tags(e, kept)

    n = len(text)
    containing = chunks_containing(start, end, n)
    boundary = "chunk-boundary" in e.tags
    if e.cite is None:
        cited = None
        if boundary:
            _fail(e.id, "chunk-boundary quote needs a cited chunk")
        groups = [g for g in range(group_count(n))
                  if group_span(g, n)[0] <= start and end <= group_span(g, n)[1]]
        if groups:
            _fail(e.id, f"span fits group(s) {groups}; cite a chunk")
    elif boundary:
        cited = start // STRIDE if e.cite == "auto" else e.cite
        if containing:
            _fail(e.id, f"chunk-boundary quote lies inside chunk(s) {containing}")
        cs, ce = chunk_span(cited, n)
        if not (cs <= start < ce < end):
            _fail(e.id, f"span [{start},{end}) must start in chunk {cited} [{cs},{ce}) and cross its end")
    else:
        if e.cite == "auto":
            if not containing:
                _fail(e.id, f"no chunk contains [{start},{end}); shorten it or tag chunk-boundary")
            cited = containing[-1]
        else:
            cited = e.cite
            if cited not in containing:
                _fail(e.id, f"cited chunk {cited} does not contain [{start},{end})")
    if cited is not None:
        g = cited // GROUP_SIZE
        gs, ge = group_span(g, n)
        if not (gs <= start and end <= ge):
            _fail(e.id, f"span [{start},{end}) leaves group {g} [{gs},{ge}) of cited chunk {cited}")

    out: dict = {"id": e.id, "text": e.quote, "label": "faithful", "tags": list(e.tags)}
    if cited is not None:
        out["cited_chunk"] = cited
    out["anchor"] = {"page": doc.page_at(start), "start": start, "end": end, "text": text[start:end]}
    if e.note:
        out["note"] = e.note
    return out


def build_fabricated(doc: Document, views: list[str], v7_views: list[str] | None,
                     v5_norm: tuple[str, list[int]], e: Fabricated) -> dict:
    if not ID_RE.match(e.id):
        _fail(e.id, "bad id")
    unknown = set(e.tags) - set(FABRICATED_TAGS)
    if unknown:
        _fail(e.id, f"unknown fabricated tags {sorted(unknown)}")
    if not e.note:
        _fail(e.id, "fabricated quotes need a note")
    trivial = "trivial" in e.tags
    q = simple_normalize(e.quote)
    if trivial:
        if len(q) > 3:
            _fail(e.id, "a trivial quote is empty, whitespace or at most 3 characters")
    else:
        for j in ("drop", "keep"):
            qn = simple_normalize(e.quote, j)
            for view in views:
                if qn in view:
                    _fail(e.id, f"fabricated quote found in the v5 text: {qn!r}")
        if v7_views is not None and "version-drift" not in e.tags:
            if any(q in view for view in v7_views):
                _fail(e.id, "fabricated quote found in the v7 text")
        if e.source is None:
            _fail(e.id, "near-miss needs the real text it was derived from (source)")
        if "version-drift" in e.tags:
            if e.source_in != "v7" or simple_normalize(e.source) != q:
                _fail(e.id, "a version-drift quote is v7 text: source == quote, source_in='v7'")
        elif simple_normalize(e.source) == q:
            _fail(e.id, "source equals the quote")
    cited = None if e.cite == "auto" else e.cite
    if e.source is not None:
        src = simple_normalize(e.source)
        if e.source_in == "v7":
            if "version-drift" not in e.tags:
                _fail(e.id, "only version-drift quotes come from v7")
            if v7_views is not None and not any(src in view for view in v7_views):
                _fail(e.id, f"source not found in the v7 text: {src!r}")
            if any(src in view for view in views):
                _fail(e.id, "version-drift source is present in v5 too")
            if e.cite == "auto":
                # cite where the corresponding v5 material is (the arXiv stamp)
                norm, where = v5_norm
                k = norm.find("arXiv:1706.03762v5")
                if k < 0:
                    _fail(e.id, "v5 stamp not found")
                cited = where[k] // STRIDE
        else:
            norm, where = v5_norm
            k = norm.find(src)
            if k < 0:
                _fail(e.id, f"source not found in the v5 text: {src!r}")
            if norm.find(src, k + 1) >= 0:
                _fail(e.id, "source is not unique in the v5 text")
            start, end = where[k], where[k + len(src) - 1] + 1
            if e.cite == "auto":
                containing = chunks_containing(start, end, len(doc.text))
                cited = containing[-1] if containing else start // STRIDE
    out: dict = {"id": e.id, "text": e.quote, "label": "fabricated", "tags": list(e.tags)}
    if cited is not None:
        out["cited_chunk"] = cited
    out["note"] = e.note
    return out


def build() -> dict:
    path = find_paper(PAPER_FILE, [REPO.parent / "shared" / "papers"]) or find_paper(PAPER_FILE)
    if path is None:
        raise BuildError(f"{PAPER_FILE} not found; set QUOTELOCATE_PAPERS")
    doc = Document.open(path)
    if doc.sha256 != PAPER_SHA256:
        raise BuildError(f"{path}: sha256 {doc.sha256} != pinned {PAPER_SHA256}")
    v7_path = find_paper(V7_FILE, [REPO.parent / "shared" / "papers"]) or find_paper(V7_FILE)
    v7_views = None
    if v7_path is None:
        print(f"warning: {V7_FILE} not found; version-drift quotes not checked against v7", file=sys.stderr)
    else:
        v7_views = normalized_views(Document.open(v7_path).text)

    views = normalized_views(doc.text)
    # page-number lines blanked out (same length, so offsets are kept) for source lookup
    blanked = PAGE_NUMBER_LINE.sub(lambda m: " " * len(m.group()), doc.text)
    v5_norm = normalize_with_map(blanked, "keep")
    quotes = []
    for e in FAITHFUL:
        quotes.append(build_faithful(doc, e))
    for e in FABRICATED:
        # a source may need either hyphen join: the keep variant first, else drop
        norm = v5_norm
        if e.source is not None and e.source_in == "v5" and simple_normalize(e.source) not in v5_norm[0]:
            norm = normalize_with_map(blanked, "drop")
        quotes.append(build_fabricated(doc, views, v7_views, norm, e))

    ids = [q["id"] for q in quotes]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise BuildError(f"duplicate ids: {dupes}")

    data = {
        "format": 1,
        "name": "attention-v5",
        "description": (
            "arXiv 1706.03762v5 (Attention Is All You Need, Dec 2017 copy). Faithful quotes "
            "as a model writes them over pymupdf text with ligature glyphs (U+FB01/U+FB02), "
            "line breaks, end-of-line hyphens, page numbers, footnotes and a table emitted "
            "inside sentences at page breaks (v5 reading order), curly quotes and U+03F5; "
            "fabricated near misses, including sentences only v7 has (version drift). "
            "Generated by datasets/tools/build_attention_v5.py; edit that script, not this file."
        ),
        "paper": {
            "file": PAPER_FILE,
            "sha256": PAPER_SHA256,
            "url": PAPER_URL,
            "version": "v5",
            "text": doc.text_fingerprint,
        },
        "chunking": {"size": CHUNK_SIZE, "overlap": CHUNK_OVERLAP, "group_size": GROUP_SIZE},
        "quotes": quotes,
    }
    return data


def dump(data: dict) -> str:
    return dump_quote_set(data, header="Generated by datasets/tools/build_attention_v5.py; edit that script, not this file.")


def summary(data: dict) -> str:
    from collections import Counter
    labels = Counter(q["label"] for q in data["quotes"])
    tags = {lab: Counter() for lab in labels}
    for q in data["quotes"]:
        tags[q["label"]].update(q["tags"])
    lines = [f"{len(data['quotes'])} quotes: " + ", ".join(f"{k} {v}" for k, v in sorted(labels.items()))]
    for lab in sorted(tags):
        lines.append(f"  {lab}: " + ", ".join(f"{t} {n}" for t, n in sorted(tags[lab].items())))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="verify the YAML on disk, do not write")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    try:
        data = build()
    except BuildError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    text = dump(data)
    loaded = yaml.safe_load(text)  # round trip
    assert [q["text"] for q in loaded["quotes"]] == [q["text"] for q in data["quotes"]]
    if args.check:
        if not args.out.exists() or args.out.read_text(encoding="utf-8") != text:
            print(f"{args.out} is out of date; run {Path(__file__).name}", file=sys.stderr)
            return 1
        print(f"{args.out}: up to date")
    else:
        args.out.write_text(text, encoding="utf-8")
        print(f"wrote {args.out}")
    print(summary(data))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
