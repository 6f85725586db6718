r"""The hand-written quotes of the real-paper sets, read off the rendered pages.

``build_real_corpus.py`` turns these into ``datasets/real-corpus/<paper>.yaml``; its
docstring explains the markup (``{^X}`` a glued marker the quote omits, ``{|kind}`` a
float, footnote or furniture the quote skips, ``{||kind}`` the same right after a page
break, ``{|kind@START}`` one that begins with START, ``{X=Y}`` a dash the extraction
wrote as ``X``). Faithful quotes are what a careful model writes from the page: letters
not ligature glyphs, straight quote marks, words joined across line-end hyphens,
composed accents, no superscript markers, and no running headers, footnotes or floats
inside a sentence.
"""

from __future__ import annotations

RAW = "https://raw.githubusercontent.com"


def F(id, page, q, *tags, readings=(), note="", first=False):
    """A faithful quote starting on ``page``."""
    return {"id": id, "page": page, "q": q, "tags": tags, "readings": readings, "note": note, "first": first}


def X(id, q, *tags, note=""):
    """A fabricated quote: full text, ("edit", faithful_id, old, new) or ("other", faithful_id)."""
    return {"id": id, "q": q, "tags": tags, "note": note}


def edit(fid, old, new):
    return ("edit", fid, old, new)


def other(fid):
    return ("other", fid)


PAPERS: dict[str, dict] = {}

# ---------------------------------------------------------------------------------------
PAPERS["acl2020_specter"] = dict(
    name="real-corpus-acl2020-specter",
    file="acl2020_specter.pdf",
    url=f"{RAW}/allenai/s2orc-doc2json/71c022ed4bed3ffc71d22c2ac5cdbc133ad04e3c/tests/pdf/2020.acl-main.207.pdf",
    version="ACL 2020 proceedings, pages 2270-2282",
    description=(
        "SPECTER (ACL 2020), two-column ACL style: footnotes at the foot of a column inside "
        "sentences that cross the column break, tables at the top of a column, glued "
        "superscript footnote markers, a suspended hyphen, spacing accents in the references."
    ),
    faithful=[
        F("acl-f01", 1, "Representation learning is a critical ingredient for natural language processing systems.",
          "linebreak", "hyphen-drop"),
        F("acl-f02", 1, "Recent Transformer language models like BERT learn powerful textual representations, but these "
          "models are targeted towards token- and sentence-level training objectives and do not leverage information on "
          "inter-document relatedness, which limits their document-level representation power.",
          "linebreak", "hyphen-drop"),
        F("acl-f03", 1, "For applications on scientific documents, such as classification and recommendation, the "
          "embeddings power strong performance on end tasks.", "ligature", "linebreak", "hyphen-drop"),
        F("acl-f04", 1, "We show that SPECTER outperforms a variety of competitive baselines on the benchmark.",
          "linebreak", "glued-marker", note="The footnote marker 1 is glued to the full stop that ends the quote."),
        F("acl-f05", 1, "While such models are widely used for representing individual words {|footnote} or sentences, "
          "extensions to whole-document embeddings are relatively underexplored.",
          "column-break", "footnote", "two-column", "hyphen-drop",
          note="The left column ends mid-sentence; its footnotes come between the halves."),
        F("acl-f06", 1, "Our system, SPECTER,{^2} incorporates inter-document context into the Transformer "
          "(Vaswani et al., 2017) language models", "glued-marker", "hyphen-drop"),
        F("acl-f07", 1, "In experiments, we show that SPECTER's representations substantially outperform the "
          "state-{|footnote}{||furniture}of-the-art on a variety of document-level tasks, including topic "
          "classification, citation prediction, and recommendation.",
          "page-break", "page-number", "footnote", "hyphen-keep", "smart-quote", "ligature"),
        F("acl-f08", 2, "As an additional contribution of this work, we introduce and release SCIDOCS",
          "glued-marker", "hyphen-drop", note="Ends right before the footnote marker 3."),
        F("acl-f09", 2, "Intuitively, we would expect these fields to be sufficient to produce accurate embeddings, "
          "since they are written to provide a succinct and comprehensive summary of the paper.",
          "ligature", "hyphen-drop", "glued-marker"),
        F("acl-f10", 2, "Each layer consists of a self-attention sublayer followed by a feedforward sublayer.",
          "linebreak"),
        F("acl-f11", 2, "where Transformer is the Transformer's forward function, and input is the concatenation of "
          "the [CLS] token and WordPieces (Wu et al., 2016) of the title and abstract of a paper, separated by "
          "{|footnote}{||furniture} the [SEP] token.",
          "page-break", "page-number", "footnote", "smart-quote", "hyphen-drop"),
        F("acl-f12", 3, "where d is a distance function and m is the loss margin hyperparameter (we empirically "
          "choose m = 1).", "linebreak"),
        F("acl-f13", 3, "Here, we use the L2 norm distance: d(PA, PB) = ∥vA − vB∥2,", "math-spacing",
          readings=("math-spacing",), note="The extraction has no space after the minus sign."),
        F("acl-f14", 3, "Below, we describe each of the {||furniture} tasks in detail and the evaluation data "
          "associated with it.", "page-break", "page-number", "two-column"),
        F("acl-f15", 4, "The most populated category is Neoplasms (cancer) with 5.4K instances (23.3% of the total "
          "dataset) while the category with least number of samples is Hepatitis (1.7% of the total dataset).",
          "linebreak"),
        F("acl-f16", 4, "This task is predicting the topic associated with a paper using the predefined topic "
          "categories of the Microsoft Academic Graph (MAG) (Sinha et al., 2015)",
          "ligature", "hyphen-drop", "glued-marker"),
        F("acl-f17", 4, "In this task, the goals is to classify scientific papers according to their Medical Subject "
          "Headings (MeSH) (Lipscomb, 2000).", "ligature", "hyphen-drop", "glued-marker",
          note="'the goals is' is the paper's own wording."),
        F("acl-f18", 5, "We partitioned the examples temporally into train (20K examples), validation (1K), and "
          "test (1K) sets.", "hyphen-drop"),
        F("acl-f19", 5, "We test different embeddings on the recommendation task by including cosine embedding "
          "distance{^9} as a feature within an existing recommendation system", "glued-marker", "hyphen-drop"),
        F("acl-f20", 5, "For SPECTER, we also perform an online A/B test to measure whether its advantages "
          "{|footnote} on the offline dataset translate into improvements on the online recommendation task (§5).",
          "column-break", "footnote", "two-column", "ligature"),
        F("acl-f21", 7, "Finally, we find that adding venues slightly decreases performance,{^14} except on document "
          "classification (which makes sense, as we would expect venues to have high correlation "
          "{|footnote}{|float@CLS} with paper topics).",
          "column-break", "footnote", "float", "table", "glued-marker", "ligature",
          note="The left column's footnotes and Table 2 at the top of the right column come between the halves."),
        F("acl-f22", 7, "More surprisingly, adding authors as an input (along with title and abstract) hurts "
          "performance.", "hyphen-drop", "glued-marker"),
        F("acl-f23", 7, "Figure 2 shows t-SNE (van der Maaten, 2014) projections of our embeddings (SPECTER) compared "
          "with the SciBERT baseline {||furniture}{|float@(a) SPECTER} for a random set of papers.",
          "page-break", "page-number", "float", "caption",
          note="Figure 2 heads the next page, above the rest of the sentence."),
        F("acl-f24", 8, "The positive papers are sampled from {|float} the most co-viewed (co-read, or co-cited) "
          "papers corresponding to the query paper.", "column-break", "float", "table", "two-column",
          note="Table 3 sits at the top of the right column."),
        F("acl-f25", 8, "For the points corresponding to Figure 2, the homogeneity and completeness values for SPECTER "
          "are respectively 0.41 and 0.72 compared with SciBERT's 0.19 and 0.63, a clear improvement on separating "
          "topics using the projected embeddings.", "smart-quote", "hyphen-drop"),
        F("acl-f26", 8, "While successful at many sentence- and token-level tasks, our focus is on using the models "
          "for document-level representation learning, which has remained relatively under-explored.",
          "suspended-hyphen", "linebreak", readings=("suspended-hyphen",),
          note="'sentence-' ends a line: a suspended hyphen, read as 'sentence- and'."),
        F("acl-f29", 4, "Then, we require the embedding model to rank the {||furniture} co-viewed papers higher than "
          "the random papers by comparing the L2 distances of raw embeddings.", "page-break", "page-number",
          "two-column"),
        F("acl-f30", 6, "Our evaluation of the learned representations on predicting user activity is shown in the "
          "\"User activity\" columns of Table 1.", "column-break", "two-column", "smart-quote", "hyphen-drop"),
        F("acl-f31", 8, "Unlike our proposed method, {|footnote}{||furniture} the majority of these approaches do not "
          "consider any notion of inter-document relatedness when embedding documents.",
          "page-break", "page-number", "footnote", "hyphen-drop"),
        F("acl-f32", 9, "We present SPECTER, a model for learning representations of scientific papers, based on a "
          "Transformer language model that is pretrained on citations.", "column-break", "two-column",
          "hyphen-drop", "ligature", note="'cita-' ends the left column, 'tions.' starts the right one."),
        F("acl-f33", 9, "Sanjeev Arora, Yingyu Liang, and Tengyu Ma. 2017. {||furniture} A simple but tough-to-beat "
          "baseline for sentence embeddings. In ICLR.", "page-break", "page-number", "hyphen-drop"),
        F("acl-f34", 12, "sublinear_tf, binary, use_idf, smooth_idf were all set to False.", "column-break",
          "two-column"),
        F("acl-f27", 10, "Alexis Conneau, Douwe Kiela, Holger Schwenk, Loïc Barrault, and Antoine Bordes. 2017.",
          "spacing-accent", "linebreak", readings=("spacing-accent",)),
        F("acl-f28", 11, "Radim Řehůřek and Petr Sojka. 2010. Software Framework for Topic Modelling with Large "
          "Corpora.", "spacing-accent", "hyphen-drop", readings=("spacing-accent",)),
    ],
    fabricated=[
        X("acl-x01", edit("acl-f15", "5.4K", "4.5K"), "number"),
        X("acl-x02", edit("acl-f25", "0.41 and 0.72", "0.41 and 0.77"), "number"),
        X("acl-x03", edit("acl-f03", "classification and recommendation", "classification and retrieval"), "word-swap"),
        X("acl-x04", edit("acl-f22", "hurts performance", "does not hurt performance"), "negation"),
        X("acl-x05", edit("acl-f02", "like BERT learn", "like Bert learn"), "case"),
        X("acl-x06", edit("acl-f06", " (Vaswani et al., 2017)", ""), "marker-dropped"),
        X("acl-x07", edit("acl-f11", " (Wu et al., 2016)", ""), "marker-dropped"),
        X("acl-x08", "The positive papers are sampled from Training signal CLS USR CITE REC All", "cross-flow",
          note="The sentence joined to the table that interrupts it."),
        X("acl-x09", "as we would expect venues to have high correlation CLS USR CITE REC Avg.", "cross-flow"),
        X("acl-x10", "When comparing SPECTER embeddings with SciBERT, we observe the most co-viewed (co-read, or "
          "co-cited) papers corresponding to the query paper.", "cross-column", "splice",
          note="The first line of the left column joined to the first line of the right one."),
        X("acl-x11", "d(PA, PB) = ∥vA − vB∥, where vA is the vector corresponding to the pooled output",
          "dropped-exponent", note="The norm's index 2 is dropped."),
        X("acl-x12", edit("acl-f09", "summary of the paper.", "summary of the paper and its citations."),
          "invented-tail"),
        X("acl-x13", edit("acl-f12", "m = 1", "m = 10"), "number"),
        X("acl-x14", edit("acl-f26", "sentence- and", "sentenceand"), "punctuation",
          note="Joining a suspended hyphen gives a word the page does not print."),
        X("acl-x15", edit("acl-f20", "the online recommendation task", "the offline recommendation task"),
          "word-swap"),
        X("acl-x16", other("pmj-f01"), "other-paper"),
    ],
)

# ---------------------------------------------------------------------------------------
PAPERS["pmj2010_iron_deficiency_hpylori"] = dict(
    name="real-corpus-pmj2010-iron-deficiency-hpylori",
    file="pmj2010_iron_deficiency_hpylori.pdf",
    url=f"{RAW}/CeON/CERMINE/6a253f28fec8ddc5f6eb98d514951c55954f5878/cermine-impl/src/test/resources/pl/edu/icm/cermine/test5.pdf",
    version="Postgrad Med J 2010;86:272-278",
    description=(
        "Iron deficiency anaemia and H pylori (Postgrad Med J 2010), BMJ two-column layout with a "
        "sidebar on the first page: Vancouver citation numbers glued to words and punctuation, "
        "dashes extracted as the letter e, lines justified one word per line, full-width forest "
        "plots and tables, a running header and footer."
    ),
    faithful=[
        F("pmj-f01", 1, "Recent guidelines on iron deficiency anaemia (IDA) have confirmed the aetiological role of "
          "Helicobacter pylori (H pylori), but the relationship still remains controversial.", "ligature", "linebreak"),
        F("pmj-f03", 1, "Iron deficiency anaemia (IDA) is a global public health problem affecting both developing "
          "and developed countries, with major consequences for human health as well as social and economic "
          "development, especially in Asia.", "ligature", "hyphen-drop", "glued-marker",
          note="The citation range 1-3 (extracted '1e3') is glued to the full stop that ends the quote."),
        F("pmj-f05", 1, "In the past decades, the association between Helicobacter pylori (H pylori) infection and "
          "IDA has been controversial.", "linebreak", "glued-marker"),
        F("pmj-f06", 1, "research studies are needed to assess whether H pylori eradication offers benefit to patients "
          "with IDA, especially unexplained IDA. We performed a meta-analysis of randomised controlled trials (RCTs) "
          "to determine whether H pylori eradication treatment is an effective therapeutic strategy to improve IDA",
          "column-break", "two-column", "ligature", "hyphen-drop"),
        F("pmj-f07", 1, "(Meta-analysis is the process of combining several study results that can be used to draw "
          "conclusions about therapeutic effectiveness or to plan new studies which also avoids the possibility of "
          "prejudice caused by a single study.{^9})", "glued-marker", "linebreak"),
        F("pmj-f08", 1, "We performed the meta-analysis in accordance with the standard protocol recommended by the "
          "Quality of Reporting of Meta-analyses Group (QUOROM).", "linebreak", "glued-marker"),
        F("pmj-f09", 1, "The search was limited to RCTs, using the following index terms: 'H pylori', 'iron deficiency "
          "anemia', 'sideropenic refractory anemia', 'ferritin', 'iron' and 'hemoglobin'.",
          "smart-quote", "ligature", "hyphen-drop"),
        F("pmj-f10", 1, "The Jadad{^11} score was utilised to screen out RCTs of low quality (Jadad score <2).",
          "glued-marker", "linebreak"),
        F("pmj-f11", 2, "The quality of the studies was assessed using the scoring system proposed by Jadad,{^11} "
          "including: selection bias{^12} (randomisation procedure and allocation concealment); attrition bias{^13} "
          "(withdrawals, dropouts); and detection bias{^14 15} (placebo utilisation).", "glued-marker", "hyphen-drop"),
        F("pmj-f12", 2, "Discrepancies were resolved by discussion and consultation with two other reviewers (Yan WL "
          "and Huang YL).", "linebreak", note="The justified lines are extracted one word per line."),
        F("pmj-f14", 2, "we used weighted mean difference (WMD) and 95% CIs{^17} to evaluate the differences between "
          "each set of values.", "glued-marker", "hyphen-drop"),
        F("pmj-f15", 2, "For results showing significant heterogeneity (I2 >50%), a random effects meta-analysis was "
          "also performed using the method of DerSimonian and Laird.{^22} The underlying assumption of the model is "
          "that the studies are from a hypothetical population and that inter-study variance can be represented by "
          "a single estimate.", "column-break", "two-column", "glued-marker", "hyphen-drop", "ligature",
          note="I2 is the I-squared statistic (a raised 2, part of the name, not a marker); 'assump-' ends the left "
          "column."),
        F("pmj-f16", 2, "According to the diagnosis standard for IDA constituted by WHO,{^33} we defined those with Hb "
          "value of 80{e=–}120 g/l as the mild to moderate anaemia group, and those with a Hb value 60{e=–}80 g/l as "
          "the marked (pronounced) anaemia group.", "dash-glyph", "glued-marker", "ligature",
          note="The page prints en dashes in 80-120 and 60-80; the font maps them to the letter e. A model "
               "copying the page writes the dash, so the quote is faithful (the label describes the paper, not "
               "the extraction)."),
        F("pmj-f17", 2, "Postgrad Med J 2010;86:272{e=–}278.", "dash-glyph", "running-header",
          note="The running footer; the printed page range has an en dash the extraction reads as 'e'. Faithful "
               "for the same reason as pmj-f16."),
        F("pmj-f18", 3, "A final total of eight RCTs were identified as eligible for inclusion in the meta-analysis.",
          "ligature", "glued-marker"),
        F("pmj-f19", 3, "Our meta-analysis involved 450 participants, ranging in age from 2{e=–}76 years old.",
          "dash-glyph", "linebreak"),
        F("pmj-f20", 3, "Seven of the eight RCTs provided data on changes in Hb, showing these changes to be higher in "
          "the intervention groups than in the control groups. The WMD of Hb concentrations from these seven "
          "studies was 12.88 g/l (95% CI 6.03 to 19.74 g/l, p<0.00001).", "column-break", "two-column"),
        F("pmj-f21", 3, "The WMD of SF was {|float}{|furniture@274} calculated to be 10.05",
          "page-break", "float", "table", "caption", "running-header", "page-number",
          note="Table 2 ends the right column of page 3, below the first half; the rest opens page 4. The unit "
               "after 10.05 is left out: the page prints a micro sign the font maps to 'm'."),
        F("pmj-f23", 4, "The marked anaemia group achieved a wider rising range than the mild to moderate anaemia "
          "group. To examine the therapeutic regimen, we separated the studies into bismuth and PPI triple therapy.",
          "column-break", "two-column"),
        F("pmj-f25", 4, "Diversiform means was utilised to test the steadiness of the {|float}{|furniture@Postgrad} "
          "results we reached.", "page-break", "float", "caption", "running-header", "page-number",
          note="The caption of Figure 3, the footer and the header come between the halves."),
        F("pmj-f26", 5, "Our meta-analysis, evaluating a total of eight RCTs, shows that H pylori eradication treatment "
          "is an effective therapeutic strategy to improve IDA, especially Hb and SF concentrations. The WMD of Hb "
          "was 12.88 g/l (95% CI 6.03 to 19.74 g/l, p<0.00001); the WMD of SF was 10.05",
          "column-break", "two-column"),
        F("pmj-f28", 5, "All of the studies included had a Jadad score >2. {|float}{|furniture@276} Eight RCTs, "
          "including high quality Chinese trials, satisfied the inclusion criteria.",
          "page-break", "float", "caption", "running-header", "page-number", "ligature"),
        F("pmj-f29", 6, "Accordingly, iron requirements of children are larger than adults and iron deficiency is "
          "most common in the preschool years and during puberty.", "ligature", "glued-marker"),
        F("pmj-f30", 6, "To test this hypothesis, we separated individuals into an adult group and a children group.",
          "linebreak"),
        F("pmj-f31", 6, "It turned out that the 8 week iron supplement group had a much better response than the "
          "4 week group.", "column-break", "two-column"),
        F("pmj-f32", 7, "Higgins JP, Thompson SG, Deeks JJ, et al. Measuring inconsistency in meta-analyses. "
          "BMJ 2003;327:557{e=–}60.", "dash-glyph", "hyphen-keep"),
        F("pmj-f33", 7, "L'Abbé KA, Detsky AS, O'Rourke K. Meta-analysis in clinical research.", "spacing-accent",
          "smart-quote", readings=("spacing-accent",), note="The acute accent follows the e: 'Abbe´'."),
    ],
    fabricated=[
        X("pmj-x01", edit("pmj-f20", "was 12.88 g/l", "was 12.38 g/l"), "number"),
        X("pmj-x02", edit("pmj-f19", "450 participants", "540 participants"), "number"),
        X("pmj-x03", edit("pmj-f31", "had a much better response", "did not have a much better response"), "negation"),
        X("pmj-x04", edit("pmj-f30", "an adult group and a children group", "a children group and an adult group"),
          "word-swap"),
        X("pmj-x05", edit("pmj-f01", "Helicobacter pylori (H pylori)", "helicobacter pylori (H pylori)"), "case"),
        X("pmj-x06", edit("pmj-f08", " (QUOROM)", ""), "marker-dropped",
          note="The bracketed acronym is left out."),
        X("pmj-x07", "For results showing significant heterogeneity (I >50%), a random effects meta-analysis was "
          "also performed", "dropped-exponent", note="I2 (I-squared) loses its raised 2."),
        X("pmj-x08", "The WMD of SF was Figure 2 Treatment effect and underlying connection between H pylori and IDA.",
          "cross-flow", note="The body sentence joined to the caption that interrupts it."),
        X("pmj-x09", "Diversiform means was utilised to test the steadiness of the Figure 3 Forest plot of age "
          "subgroup.", "cross-flow"),
        X("pmj-x10", "The WMD of Hb concentrations to be higher in the intervention groups than in the control groups.",
          "cross-column", "splice"),
        X("pmj-x11", edit("pmj-f23", "a wider rising range", "a narrower rising range"), "word-swap"),
        X("pmj-x12", edit("pmj-f10", "(Jadad score <2)", "(Jadad score <3)"), "number"),
        X("pmj-x13", edit("pmj-f16", "80–120 g/l", "80–110 g/l"), "number"),
        X("pmj-x14", edit("pmj-f29", "are larger than adults", "are smaller than adults"), "word-swap"),
        X("pmj-x15", edit("pmj-f09", "'ferritin', 'iron'", "'ferritin', 'serum iron'"), "word-added"),
        X("pmj-x16", other("acl-f10"), "other-paper"),
    ],
)
