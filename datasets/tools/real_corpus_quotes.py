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
        F("pmj-f17", 1, "Postgrad Med J 2010;86:272{e=–}278.", "dash-glyph", "running-header",
          note="The running footer, the same on every page (anchored at its first); the printed page range has "
               "an en dash the extraction reads as 'e'. Faithful for the same reason as pmj-f16."),
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
        F("pmj-f34", 1, "However, eradication of H pylori has not been clearly demonstrated to improve IDA. The American "
          "College of Gastroenterology{^8} suggests adequately powered research studies are needed to assess whether "
          "H pylori eradication offers benefit to patients with IDA, especially unexplained IDA. We performed a "
          "meta-analysis of randomised controlled trials (RCTs)", "word-gap", "glued-marker", "linebreak",
          "column-break", "two-column", "ligature", "hyphen-drop", readings=("word-gap",),
          note="The line 'demonstrated to improve IDA. The American College' is justified so tight that its word "
               "gaps are narrower than what pymupdf takes for a space: the text runs its words together."),
        F("pmj-f35", 3, "Six RCTs{^25e32} provided Hb and SF data, one RCT{^28} provided only Hb changes, and one "
          "RCT{^30} provided only SF changes;", "word-gap", "glued-marker", "linebreak", readings=("word-gap",),
          note="The second line is extracted without word spaces, and its citation markers 28 and 30 run into the "
               "next word."),
        F("pmj-f36", 4, "Diversiform means was utilised to test the steadiness of the {|float}{|furniture@Postgrad} "
          "results we reached. The results show that most of the heterogeneity was caused by the study of Sarker "
          "et al{^32} (Q{\u00bc==}23.8) in Hb changes, and Huang et al{^26} (Q{\u00bc==}55.32) in SF changes.",
          "equals-glyph", "glued-marker", "hyphen-drop", "linebreak", "page-break", "float", "caption",
          "running-header", "page-number",
          note="The page prints Q=23.8 and Q=55.32; the font maps the equals sign to the character 1/4. The caption "
               "of Figure 3, the footer and the header come between the first sentence's halves."),
        F("pmj-f37", 5, "The bias coefficient of the SF studies was 1.32 (p{\u00bc==}0.586), which showed a lack of "
          "publication bias.", "equals-glyph", "ligature", "linebreak",
          note="The page prints p=0.586; the font maps the equals sign to the character 1/4."),
        F("pmj-f38", 7, "Vitamin and mineral requirements in human nutrition. "
          "http://whqlibdoc.who.int/publications/2004/9241546123.pdf (accessed 2004).", "url-break", "linebreak",
          readings=("url-break",), note="The URL breaks after 'whqlibdoc.' at a line end."),
        F("pmj-f39", 7, "Iron deficiency anaemia. Assessment, prevention and control: A guide for programme managers. "
          "http://whqlibdoc.who.int/hq/2001/WHO_NHD_01.3.pdf (accessed 2001).", "url-break", "ligature", "linebreak",
          readings=("url-break",), note="The URL breaks after '01.3.' at a line end."),
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
        X("pmj-x17", edit("pmj-f34", "demonstrated to improve IDA", "demonstrated to worsen IDA"), "word-swap",
          note="On the line set without word spaces."),
        X("pmj-x18", edit("pmj-f35", "one RCT provided only Hb changes", "one RCT provided only SF changes"),
          "word-swap", note="On the line set without word spaces."),
        X("pmj-x19", edit("pmj-f34", "has not been clearly demonstrated", "has been clearly demonstrated"),
          "negation"),
        X("pmj-x20", edit("pmj-f36", "(Q=23.8)", "(Q=28.3)"), "number"),
        X("pmj-x21", edit("pmj-f37", "(p=0.586)", "(p<0.586)"), "punctuation",
          note="Another relation than the printed equals sign."),
        X("pmj-x22", edit("pmj-f38", "2004/9241546123.pdf", "2004/9241546132.pdf"), "number",
          note="Another document number in the URL that crosses the line break."),
        X("pmj-x23", edit("pmj-f39", "WHO_NHD_01.3.pdf (accessed 2001)", "WHO_NHD_01.3.pdf (accessed 2010)"), "number"),
    ],
)

# ---------------------------------------------------------------------------------------
PAPERS["pldi2009_tracemonkey"] = dict(
    name="real-corpus-pldi2009-tracemonkey",
    file="pldi2009_tracemonkey.pdf",
    url=f"{RAW}/kermitt2/grobid/b8d6bec302189e29a6c358ea513f8be834004a86/grobid-service/src/main/resources/web/"
    "resources/pdf.js/web/compressed.tracemonkey-pldi-09.pdf",
    version="PLDI 2009",
    description=(
        "TraceMonkey (PLDI 2009), two-column ACM SIGPLAN style from pdfeTeX: the ACM permission "
        "block at the foot of the first column, code listings and plots at the top of columns "
        "between the halves of sentences, a spacing diaeresis, a raised exponent in O(n^k), "
        "footnote markers."
    ),
    faithful=[
        F("pldi-f01", 1, "Dynamic languages such as JavaScript are more difficult to compile than statically typed "
          "ones.", "ligature", "hyphen-drop"),
        F("pldi-f02", 1, "We present an alternative compilation technique for dynamically-typed languages that "
          "identifies frequently executed loop traces at run-time and then generates machine code on the fly that "
          "is specialized for the actual dynamic types occurring on each path through the loop.",
          "ligature", "hyphen-drop"),
        F("pldi-f03", 1, "We have implemented a dynamic compiler for JavaScript based on our technique and we have "
          "measured speedups of 10x and more for certain benchmark programs.", "linebreak"),
        F("pldi-f04", 1, "JavaScript, for example, is the de facto standard for client-side web programming "
          "{|footnote} and is used for the application logic of browser-based productivity applications such as "
          "Google Mail, Google Docs and Zimbra Collaboration Suite.",
          "column-break", "two-column", "footnote", "hyphen-drop",
          note="The ACM permission and copyright block ends the first column between the halves."),
        F("pldi-f05", 1, "When the VM executes a compiled trace, it cannot guarantee that the same path will be "
          "followed or that the same types will occur in subsequent loop iterations. Hence, recording and "
          "compiling a trace speculates that the path and typing will be exactly as they were during recording "
          "for subsequent iterations of the loop.", "page-break", "two-column", first=True),
        F("pldi-f06", 2, "In a naïve implementation, inner loops would become hot first, and the VM would start "
          "tracing there.", "spacing-accent", "ligature", readings=("spacing-accent",)),
        F("pldi-f07", 2, "In Section 7 we evaluate our dynamic compiler based on {|float} a set of industry "
          "benchmarks.", "column-break", "float", "caption", "two-column",
          note="Figures 1 and 2 head the right column, between the halves."),
        F("pldi-f08", 3, "The result is a native code fragment that can be entered if the interpreter PC and the "
          "types of values match those observed when trace recording was started.", "column-break", "two-column"),
        F("pldi-f09", 4, "In TraceMonkey, objects' representations are assigned an integer key called the object "
          "shape.", "page-break", "hyphen-drop", "smart-quote"),
        F("pldi-f10", 5, "JavaScript has no integer type, only a Number type that is the set of 64-bit IEEE-754 "
          "floating-pointer numbers (\"doubles\").", "hyphen-keep", "ligature", "smart-quote"),
        F("pldi-f11", 5, "so they first convert the number to an integer, and then convert any integer result back "
          "to a double.{^1} Clearly, a JavaScript VM that wants to be fast must find a way to operate on integers "
          "directly and avoid these conversions.", "glued-marker", "ligature"),
        F("pldi-f12", 5, "Arrays are actually worse than this: if the index value is a number, it must be converted "
          "from a double to a string for the property access operator, and then to an integer internally to the "
          "array implementation.", "footnote", "linebreak"),
        F("pldi-f13", 7, "In general, if loops are nested to depth k, and each loop has n paths (on geometric "
          "average), this naïve strategy yields O(nk) traces, which can easily fill the trace cache.",
          "spacing-accent", "ligature", readings=("spacing-accent",),
          note="O(nk) is O(n^k) with k raised; a model copying the line writes the letters in order."),
        F("pldi-f14", 8, "Let vm be the last instruction before the current where each v is referred to. Then the "
          "{|float} heuristic selects v with minimum vm.", "column-break", "float", "table", "caption",
          note="Figure 9 (a table of tags) heads the right column; vm has m as a subscript."),
        F("pldi-f15", 8, "Then, the trace is called like a normal C function pointer. When a trace call returns, "
          "the monitor restores the interpreter state.", "page-break", "two-column"),
        F("pldi-f16", 9, "Once a loop is blacklisted we never call into the trace monitor for that loop (see Section "
          "3.3). Recording is activated by a pointer swap that sets the interpreter's dispatch table to call a "
          "single \"interrupt\" routine for every bytecode.", "column-break", "two-column", "hyphen-drop",
          "smart-quote"),
        F("pldi-f17", 10, "For example, we suspected bugs in TraceMonkey's handling of type-unstable {|float} loops "
          "and heavily branching code, and a specialized fuzz tester indeed revealed several regressions which we "
          "subsequently corrected.", "column-break", "float", "caption", "smart-quote", "hyphen-drop",
          note="The plot of Figure 11 and its caption head the right column."),
        F("pldi-f18", 10, "We evaluated our JavaScript tracing implementation using SunSpider, the industry standard "
          "JavaScript benchmark suite.", "hyphen-drop"),
        F("pldi-f19", 12, "We are able to outperform the fastest available JavaScript compiler (V8) and the fastest "
          "available JavaScript inline threaded interpreter (SFX) on 9 of 26 benchmarks.",
          "column-break", "two-column"),
        F("pldi-f20", 12, "Their trace trees actually inlined parts of outer loops within the inner loops (because "
          "{||float} inner loops become hot first), leading to much greater tail duplication.",
          "page-break", "float", "caption", "ligature", "hyphen-drop",
          note="Figure 12 heads the next page, between the halves."),
        F("pldi-f21", 13, "Researchers have shown how to generate native code with nearly the same structure but "
          "better performance.", "column-break", "two-column", "hyphen-drop"),
        F("pldi-f22", 13, "Any opinions, findings, and conclusions or recommendations expressed here are those of the "
          "author and should not be interpreted as necessarily representing the official views, policies or "
          "endorsements, either expressed or implied, of the National Science foundation",
          "page-break", "ligature", "hyphen-drop"),
        F("pldi-f23", 11, "access-nbody forms a large number of traces (81).", "plain"),
        F("pldi-f24", 2, "The best case is a loop where the types at the loop edge are the same as the types on "
          "entry–then TM can stay in native code until the loop is done.", "caption", "linebreak"),
    ],
    fabricated=[
        X("pldi-x01", edit("pldi-f03", "10x and more", "100x and more"), "number"),
        X("pldi-x02", edit("pldi-f19", "on 9 of 26 benchmarks", "on 19 of 26 benchmarks"), "number"),
        X("pldi-x03", edit("pldi-f01", "more difficult", "less difficult"), "word-swap"),
        X("pldi-x04", edit("pldi-f08", "can be entered", "cannot be entered"), "negation"),
        X("pldi-x05", edit("pldi-f18", "SunSpider", "Sunspider"), "case"),
        X("pldi-x06", "this naïve strategy yields O(n) traces, which can easily fill the trace cache.",
          "dropped-exponent", note="O(n^k) loses its exponent k."),
        X("pldi-x07", "Then the heuristic selects v with minimum v.", "dropped-exponent",
          note="The subscript m of vm is dropped."),
        X("pldi-x08", "In Section 7 we evaluate our dynamic compiler based on for (var i = 2; i < 100; ++i) {",
          "cross-flow", note="The sentence joined to the listing of Figure 1 that interrupts it."),
        X("pldi-x09", "JavaScript, for example, is the de facto standard for client-side web programming Permission "
          "to make digital or hard copies of all or part of this work", "cross-flow"),
        X("pldi-x10", "Then the Tag JS Type Description", "cross-flow"),
        X("pldi-x11", "Trace trees were originally proposed by Gal et al. in the context of Java, a statically "
          "typed language.", "marker-dropped", note="The bracketed reference (11) is dropped."),
        X("pldi-x12", edit("pldi-f12", "from a double to a string", "from a string to a double"), "word-swap"),
        X("pldi-x13", edit("pldi-f23", "(81)", "(18)"), "number"),
        X("pldi-x14", "We are able to outperform the fastest available JavaScript compiler (V8) and the erate native "
          "code with nearly the same structure but better performance.", "cross-column", "splice"),
        X("pldi-x15", edit("pldi-f15", "restores the interpreter state", "restores the trace state"), "word-swap"),
        X("pldi-x16", other("jcap-f01"), "other-paper"),
    ],
)

# ---------------------------------------------------------------------------------------
JCAP_FOOT = "{|furniture@Journal of Cosmology}{||furniture}"  # footer and page number, then margin stamp and header

PAPERS["jcap2008_apparent_accelerations"] = dict(
    name="real-corpus-jcap2008-apparent-accelerations",
    file="jcap2008_apparent_accelerations.pdf",
    url=f"{RAW}/kermitt2/grobid/b8d6bec302189e29a6c358ea513f8be834004a86/grobid-core/src/test/resources/test/"
    "0807.3577.pdf",
    version="JCAP 10 (2008) 003",
    description=(
        "Apparent and average accelerations of the Universe (JCAP 2008), single column IOP/SISSA "
        "style: a vertical margin stamp read as the first line of every page, running footer and "
        "header inside sentences that cross pages, figures at the top of pages, old LaTeX spacing "
        "accents (Lemaître, Mühlenberg, the dotted a-dot-dot), exponents and subscripts in inline math."
    ),
    faithful=[
        F("jcap-f01", 1, "In this paper we consider the relation between the volume deceleration parameter obtained "
          "within the Buchert averaging scheme and the deceleration parameter derived from supernova observation.",
          "linebreak"),
        F("jcap-f02", 1, "This work was motivated by recent findings that showed that there are models which despite "
          "having Λ = 0 have volume deceleration parameter qvol < 0.", "ligature", "linebreak",
          note="vol is a subscript of q."),
        F("jcap-f03", 1, "This opens the possibility that back-reaction and averaging effects may be used as an "
          "interesting alternative explanation to the dark energy phenomenon.", "ligature", "linebreak"),
        F("jcap-f04", 1, "We have calculated qvol in some Lemaître–Tolman models.", "spacing-accent",
          readings=("spacing-accent",)),
        F("jcap-f05", 1, "Albert Einstein Institute, Am Mühlenberg 1, D-14467 Golm, Germany", "spacing-accent",
          readings=("spacing-accent",)),
        F("jcap-f06", 2, "The accelerated expansion was originally motivated by supernova observations [1] and is "
          "supported by many other types of cosmological observations.", "linebreak"),
        F("jcap-f07", 2, "In this situation, if the Ehlers–Geren–Sachs theorem [3] and 'almost EGS theorem' [4] are "
          "invoked{^5}, then it seems that an assumption of large scale homogeneity of the Universe can be "
          "justified.", "glued-marker", "smart-quote", "ligature"),
        F("jcap-f08", 2, "Unfortunately, in the standard approach, the back-reaction is {|footnote}" + JCAP_FOOT +
          " rarely taken into account—in most cases when modeling our Universe on a local scale Newtonian "
          "mechanics is employed", "page-break", "footnote", "running-header", "margin-stamp", "page-number",
          note="Footnote 5, the running footer with the page number, the margin stamp and the running header "
               "come between the halves."),
        F("jcap-f09", 2, "These theorems imply that if anisotropies in the cosmic microwave background radiation are "
          "small for all fundamental observers then the Universe is locally almost spatially homogeneous and "
          "isotropic.", "footnote", "linebreak"),
        F("jcap-f10", 3, "The model proposed by Wiltshire introduces some additional assumptions which allow to some "
          "extent a comparison of " + JCAP_FOOT + " averaged quantities with observations.",
          "page-break", "running-header", "margin-stamp", "page-number"),
        F("jcap-f11", 4, "As can be seen from (3), if the dispersion of expansion is large, Q can be large as well "
          "and one can get acceleration (ä > 0) without employing the cosmological constant.",
          "spacing-accent", "linebreak", readings=("spacing-accent",),
          note="The second time derivative of a is set as a spacing diaeresis before the letter."),
        F("jcap-f12", 5, "The Lemaître–Tolman model{^6} [30] is a spherically symmetric, pressure free and "
          "irrotational solution of the Einstein equations.", "glued-marker", "spacing-accent",
          readings=("spacing-accent",)),
        F("jcap-f13", 5, "However, it is more justified to refer to this solution as the Lemaître–Tolman model "
          "(cf [29]).", "footnote", "spacing-accent", "ligature", readings=("spacing-accent",)),
        F("jcap-f14", 6, "Although of physical importance is the luminosity distance and its ability of fitting the "
          "supernova {|furniture@Journal of Cosmology}{||furniture}{|float@Figure 1.} data, qdis is of great "
          "usefulness.", "page-break", "float", "caption", "running-header", "margin-stamp", "page-number",
          "ligature", note="Figure 1 heads page 7, between the halves."),
        F("jcap-f15", 7, "are models with average acceleration also able to fit supernova data? "
          "{|furniture@Journal of Cosmology}{||furniture}{|float@Figure 2.} Let us now focus on models of cosmic "
          "structures.", "page-break", "float", "caption", "running-header", "margin-stamp", "page-number",
          "ligature"),
        F("jcap-f16", 8, "It was recently shown that using a perturbative approach, back-reaction cannot explain the "
          "apparent acceleration [34].", "linebreak"),
        F("jcap-f17", 8, "The Lemaître–Tolman model which evolves from a smooth density profile at last scattering "
          "to a high value profile like the NFW profile is always characterized by a collapse central region",
          "footnote", "spacing-accent", "ligature", readings=("spacing-accent",)),
        F("jcap-f18", 7, "This raises the question of whether the average acceleration has any relation to the "
          "observed acceleration of the Universe", "linebreak", first=True),
        F("jcap-f19", 9, "This work was motivated by recent results showing that there are models for which, despite "
          "Λ being zero, the average expansion rate is accelerating, i.e. ä > 0 (where a is defined by relation "
          "(4)).", "spacing-accent", "ligature", readings=("spacing-accent",)),
        F("jcap-f20", 10, "An interesting, quasi-Friedmannian approach was recently suggested " + JCAP_FOOT +
          " in [38].", "page-break", "running-header", "margin-stamp", "page-number"),
        F("jcap-f21", 12, "where H0δH = 9.6 km s−1 Mpc−1, σ = 0.6 Mpc, and H0δH = 12 km s−1 Mpc−1, σ = 1.2 Mpc for "
          "models 3 and 4 respectively.", "linebreak", note="Units with raised exponents −1."),
        F("jcap-f22", 12, "where ℓ = 1 kpc−1; δ = 1.2 × 10−3 and 2 × 10−3 for models 6 and 7 respectively;",
          "math-spacing", readings=("math-spacing",), note="No space between ℓ and = in the extraction."),
        F("jcap-f23", 12, "γ = 14.62 × 10−4 and 8.03 × 10−4 for models 6 and 7 respectively; a = 0.01 and 0.04 "
          "{|furniture@Journal of Cosmology}{||furniture}{|float@Figure A.1.} for models 6 and 7 respectively;",
          "page-break", "float", "caption", "running-header", "margin-stamp", "page-number",
          note="Figures A.1 and A.2 head page 13."),
        F("jcap-f24", 14, "which except for [exp (10−3ℓr)] is the same as the E(r) profile in the empty Universe.",
          "ligature", "linebreak"),
        F("jcap-f26", 8, "Although the NFW profile describes virialized systems{^7}, the use of this profile will prove "
          "to be very instructive. The average deceleration parameter qvol for model 5 is presented in the right "
          "panel of figure 3. {|footnote}" + JCAP_FOOT + "{|float@Figure 4.} As can be seen, in this case the "
          "deceleration parameter is positive (curve 5a).", "page-break", "footnote", "float", "caption",
          "glued-marker", "running-header", "margin-stamp", "page-number", "ligature"),
        F("jcap-f27", 14, "[24] Räsänen S, 2004 J. Cosmol. Astropart. Phys. JCAP11(2004)010 [SPIRES] " + JCAP_FOOT +
          " [25] Wiltshire D L, 2007 New J. Phys. 9 377", "page-break", "spacing-accent", "running-header",
          "margin-stamp", "page-number", readings=("spacing-accent",)),
        F("jcap-f25", 9, "back-reaction and averaging effects may be used as an interesting alternative explanation "
          "to the dark energy phenomenon. {|footnote}" + JCAP_FOOT + "{|float@Figure 5.} We have compared the "
          "quantities obtained within the exact and inhomogeneous models with their average counterparts.",
          "page-break", "footnote", "float", "caption", "running-header", "margin-stamp", "page-number", "ligature"),
    ],
    fabricated=[
        X("jcap-x01", edit("jcap-f22", "δ = 1.2 × 10−3 and 2 × 10−3", "δ = 1.2 × 10 and 2 × 10"), "dropped-exponent",
          note="Both exponents −3 are dropped."),
        X("jcap-x02", edit("jcap-f21", "9.6 km s−1 Mpc−1, σ = 0.6", "9.6 km s Mpc, σ = 0.6"), "dropped-exponent"),
        X("jcap-x03", edit("jcap-f02", "qvol < 0", "q < 0"), "dropped-exponent", note="The subscript vol is dropped."),
        X("jcap-x04", edit("jcap-f23", "14.62 × 10−4", "14.26 × 10−4"), "number"),
        X("jcap-x05", edit("jcap-f16", "back-reaction cannot explain", "back-reaction can explain"), "negation"),
        X("jcap-x06", edit("jcap-f06", "supernova observations [1] and", "supernova observations and"),
          "marker-dropped"),
        X("jcap-x07", edit("jcap-f03", "the dark energy phenomenon", "the dark matter phenomenon"), "word-swap"),
        X("jcap-x08", edit("jcap-f09", "the Universe is locally", "the universe is locally"), "case"),
        X("jcap-x09", "Unfortunately, in the standard approach, the back-reaction is These theorems imply that if "
          "anisotropies in the cosmic microwave background radiation are small", "cross-flow",
          note="The body sentence joined to the footnote that interrupts it."),
        X("jcap-x10", "and its ability of fitting the supernova Figure 1. The residual Hubble diagram for models 1–4.",
          "cross-flow"),
        X("jcap-x11", edit("jcap-f10", "averaged quantities with observations", "averaged quantities with "
          "simulations"), "word-swap"),
        X("jcap-x12", edit("jcap-f12", "pressure free and irrotational", "pressure free and rotational"),
          "word-swap"),
        X("jcap-x13", edit("jcap-f20", "in [38].", "in [28]."), "number"),
        X("jcap-x14", edit("jcap-f11", "(ä > 0)", "(ä < 0)"), "punctuation"),
        X("jcap-x15", edit("jcap-f05", "D-14467 Golm", "D-14476 Golm"), "number"),
        X("jcap-x16", other("pldi-f03"), "other-paper"),
    ],
)

# ---------------------------------------------------------------------------------------
PAPERS["ieee_tcsvt1997_disk_storage_scalable_video"] = dict(
    name="real-corpus-ieee-tcsvt1997-disk-storage-scalable-video",
    file="ieee_tcsvt1997_disk_storage_scalable_video.pdf",
    url=f"{RAW}/allenai/science-parse/f83983aa1b898f0e47c97f4997c57427bf277182/core/src/test/resources/"
    "2a774230b5328df3f8125da9b84a82d92b46a240.pdf",
    version="IEEE Trans. Circuits Syst. Video Technol. 7(5):758-770, 1997",
    description=(
        "Disk-based storage for scalable video (IEEE TCSVT 1997), two-column IEEE Transactions "
        "layout from Acrobat Distiller: a drop cap, the manuscript footnote at the foot of the "
        "first column, running headers with page numbers, tables and figures at the top of "
        "columns and pages between the halves of sentences, compounds broken at line ends."
    ),
    faithful=[
        F("ieee-f01", 1, "In this paper, we consider the placement of scalable video data on single and multiple "
          "disks for storage and real-time retrieval.", "hyphen-keep", "linebreak"),
        F("ieee-f02", 1, "We examine the qualities of video reconstructions obtained from a real disk video server and "
          "find the scalable video more visually appealing.", "ligature", "linebreak"),
        F("ieee-f03", 1, "{drop:In} this paper, we consider storage and retrieval of scalable video data.",
          "drop-cap", "hyphen-drop",
          note="The I is a drop cap; the rest of the word is set in capitals on the first line."),
        F("ieee-f04", 1, "Second, when too many users request video from a server, the storage of scalable video "
          "{|footnote} permits the server to gracefully degrade, i.e., to reduce the bit rates of the videos sent "
          "to each user in order to service all users.", "column-break", "two-column", "footnote",
          note="The manuscript footnote ends the first column between the halves."),
        F("ieee-f05", 1, "Their simulations show that the use of scalable video greatly increases the I/O rate and "
          "decreases the waiting time as compared to full-rate nonscalable video.", "hyphen-keep", "linebreak"),
        F("ieee-f06", 1, "In previous work [1], we have presented a general strategy for scalable data placement on "
          "disk that maximizes the total data transfer rate for an arbitrary distribution of requested data "
          "{|furniture}{||furniture} rates.", "page-break", "running-header", "page-number",
          note="The copyright line (with a private-use glyph for the copyright sign), the next page's running "
               "header and page number come between the halves."),
        F("ieee-f07", 2, "By adding this pessimistic seek time to the worst-case {|float@TABLE I} rotation time of "
          "11 ms for a full disk revolution, we obtain the worst case total seek time estimate",
          "column-break", "float", "table", "two-column"),
        F("ieee-f08", 2, "The video sequence we use is a set of scenes from Raiders of the Lost Ark.", "linebreak"),
        F("ieee-f09", 2, "To compress the video, we use a highly-scalable three-dimensional (3-D) subband video "
          "compression scheme [15] which results in a set of bit rates shown in Table II", "linebreak"),
        F("ieee-f10", 2, "Otherwise, we multiply this ratio by the disk efficiency to {||furniture}{|float@TABLE II} "
          "find the maximum number of users we can serve:", "page-break", "float", "table", "caption",
          "running-header", "page-number", "ligature",
          note="Table II and Figure 1 head the next page."),
        F("ieee-f11", 3, "The disk cost is found by multiplying the current price of disk storage, $0.25 per MB, by "
          "the amount of data contained in a two-hour movie at the full video bit rate of 1330 Kb/s, and adding the "
          "cost of a disk controller, $200.", "linebreak"),
        F("ieee-f12", 3, "frames of each layer, {|float@TABLE III} as shown in Fig. 1. This strategy allows optimal "
          "disk operation for each user in each service round by performing one seek and a contiguous read of the "
          "exact amount of data requested.", "column-break", "float", "table", "two-column",
          note="Table III heads the right column."),
        F("ieee-f13", 3, "We have shown in previous work [3] that the use of VBR video can reduce the total system "
          "cost by up to a factor of three in comparison with the strategy of padding the VBR video trace to "
          "achieve a constant data rate.", "linebreak"),
        F("ieee-f14", 3, "For CBR video, the data can be stored and retrieved in constant-sized data blocks without "
          "risking jitter free, real-time video delivery [1], [16].", "linebreak"),
        F("ieee-f15", 3, "In previous work [3], we have shown that CDL requires too much buffer, but both CTL "
          "{||furniture}{|float@Fig. 2.} and hybrid data placement are viable strategies: CTL is slightly more "
          "efficient, while hybrid results in lower fragmentation.", "page-break", "float", "caption",
          "running-header", "page-number", "ligature"),
        F("ieee-f16", 4, "One data placement scheme that reduces the fragmentation problem is a hybrid CTL–CDL data "
          "placement scheme that stores constant-sized blocks but retrieves a variable number of blocks for each "
          "user in each service round [17].", "column-break", "two-column", "hyphen-drop"),
        F("ieee-f17", 4, "As in the CTL case, we use an admission control based on the statistics of the video. "
          "Thus, overload rounds will {||furniture}{|float@Fig. 3.} occur "
          "randomly depending on the variation in the requested bit traces.", "page-break", "float", "caption",
          "running-header", "page-number"),
        F("ieee-f18", 5, "The scalable hybrid placement strategy, {||furniture}{|float@(a)} however, results in less "
          "degradation than the scalable CTL strategy.", "page-break", "float", "caption", "running-header",
          "page-number"),
        F("ieee-f19", 6, "As seen in Fig. 4, the average PSNR drop from the full-rate to the scaled reconstruction is "
          "6 dB for CTL, as compared to 4 dB for hybrid.", "linebreak"),
        F("ieee-f20", 6, "The smaller drop in disk efficiency for the hybrid scheme occurs because we apply constant "
          "frame grouping across sets of blocks as shown in Fig. 3", "column-break", "two-column", "ligature"),
        F("ieee-f21", 6, "During pause, a user does not receive {||furniture}{|float@Fig. 5.} any data from the "
          "server and therefore cannot threaten to overload the disk.", "page-break", "float", "caption",
          "running-header", "page-number"),
        F("ieee-f22", 7, "To measure interactive delays as a function of rate scaling, we require a large number of "
          "trials for an accurate statistical {|float@TABLE IV} sample.", "column-break", "float", "table",
          "two-column"),
        F("ieee-f23", 8, "Service rounds on different disks are the same duration and synchronized with each other, "
          "so {||furniture}{|float@Fig. 8.} the disks operate in a lock-step manner [17].", "page-break", "float",
          "caption", "running-header", "page-number"),
        F("ieee-f24", 11, "We have proposed two methods of storing VBR scalable video using the principle of constant "
          "frame grouping and {||furniture} implemented our techniques on our real disk video server.",
          "page-break", "running-header", "page-number"),
        F("ieee-f25", 6, "By admitting 34 users to both systems, CTL has a throughput of 12 000 Kb/s, and hybrid has "
          "a throughput of 16 900 Kb/s.", "linebreak"),
    ],
    fabricated=[
        X("ieee-x01", edit("ieee-f11", "$0.25 per MB", "$0.52 per MB"), "number"),
        X("ieee-x02", edit("ieee-f19", "6 dB for CTL, as compared to 4 dB", "4 dB for CTL, as compared to 6 dB"),
          "number", "word-swap"),
        X("ieee-x03", edit("ieee-f25", "16 900 Kb/s", "19 600 Kb/s"), "number"),
        X("ieee-x04", edit("ieee-f13", "can reduce the total system cost", "cannot reduce the total system cost"),
          "negation"),
        X("ieee-x05", edit("ieee-f08", "Raiders of the Lost Ark", "Raiders of the lost Ark"), "case"),
        X("ieee-x06", edit("ieee-f16", " round [17].", " round."), "marker-dropped",
          note="Not a prefix: the full stop stays, the bracketed reference goes."),
        X("ieee-x07", edit("ieee-f14", "without risking jitter free", "without risking jitter-free"), "punctuation"),
        X("ieee-x08", "we require a large number of trials for an accurate statistical TABLE IV INTERACTIVE FUNCTION "
          "99% DELAY QUANTILES", "cross-flow", note="The sentence joined to the table title that interrupts it."),
        X("ieee-x09", "Second, when too many users request video from a server, the storage of scalable video "
          "Manuscript received September 1, 1996", "cross-flow"),
        X("ieee-x10", "By adding this pessimistic seek time to the worst-case TABLE I SYSTEM PARAMETERS", "cross-flow"),
        X("ieee-x11", edit("ieee-f05", "increases the I/O rate and decreases the waiting time",
                           "decreases the I/O rate and increases the waiting time"), "word-swap"),
        X("ieee-x12", edit("ieee-f21", "cannot threaten to overload", "can threaten to overload"), "negation"),
        X("ieee-x13", "One data placement scheme that reduces the fragmentation problem is a hybrid CTL–CDL data "
          "placement scheme that stores constant-sized blocks but retrieves round [17].", "cross-column", "splice"),
        X("ieee-x14", edit("ieee-f12", "performing one seek", "performing two seeks"), "number"),
        X("ieee-x15", edit("ieee-f24", "on our real disk video server", "on a simulated disk video server"),
          "word-swap"),
        X("ieee-x16", other("acl-f25"), "other-paper"),
    ],
)

# ---------------------------------------------------------------------------------------
NN_PAGE = "{|furniture@© 2011}{||furniture}"  # the vertical margin line, then the footer and the section header

PAPERS["natneuro2011_ephaptic_coupling"] = dict(
    name="real-corpus-natneuro2011-ephaptic-coupling",
    file="natneuro2011_ephaptic_coupling.pdf",
    url=f"{RAW}/allenai/pdffigures2/3d7ad46753d4a315cccd1c2bcab398380e88c534/src/test/resources/test-pdfs/"
    "f63cb20759fab2514802c3ef2a743c76bf9dc9f1.pdf",
    version="Nature Neuroscience 14(2):217-223, 2011",
    description=(
        "Ephaptic coupling of cortical neurons (Nature Neuroscience 2011), two-column InDesign "
        "layout: soft hyphens inside words, at line ends and at line starts, superscript citation "
        "numbers and ranges glued to words, a vertical copyright line in the margin of every page, "
        "figures whose axis labels are read into the body between the halves of a sentence."
    ),
    faithful=[
        F("nn-f01", 1, "Neurons communicate via specialized molecular machines, the synapses.", "soft-hyphen",
          "linebreak", note="'synapses' starts its line with a soft hyphen."),
        F("nn-f02", 1, "Such discrete, point-to-point synaptic connectivity, whether chemical or electric, is "
          "important for information processing in the brain{^1–3}. However, such integrative processes do not "
          "occur in a vacuum.", "glued-marker", "linebreak"),
        F("nn-f03", 1, "Synaptic inputs, their integration and spike generation trigger changes in the electric "
          "potential Ve outside the cell that decay with distance from the current source.", "soft-hyphen",
          "linebreak", note="gene-ration is broken with a soft hyphen."),
        F("nn-f04", 1, "Although the extracellular signature of individual neurons, such as extracellular action "
          "potentials, has a modest and spatially confined amplitude{^4,5}, coordinated synaptic input in a "
          "specific brain region", "soft-hyphen", "glued-marker"),
        F("nn-f05", 1, "Such fields, in turn, cause changes in the membrane potential Vm through ephaptic coupling",
          "glued-marker", "linebreak", note="Ends right before the glued citation range 14–20."),
        F("nn-f06", 1, "(the term 'ephapse' was coined{^14} to describe electric field interactions occurring between "
          "juxtaposed neural elements; we use it to describe effects induced by voltage and field changes along "
          "the cell membrane in general{^17})", "soft-hyphen", "glued-marker", "smart-quote"),
        F("nn-f07", 1, "Moreover, extracranial application of slowly varying currents can affect behavior, "
          "enhancing, for example, sleep-assisted memory consolidation in humans{^26}.",
          "column-break", "two-column", "soft-hyphen", "glued-marker"),
        F("nn-f08", 1, "Robust relationships between the oscillating LFP and spiking are widely observed{^27–32}.",
          "soft-hyphen", "glued-marker"),
        F("nn-f09", 1, "Endogenous electric field activity in the living brain typically induces extracellular "
          "voltage changes less than 0.5 mV and fields under 5 mV mm−1 (refs. 12,33,34).", "linebreak",
          note="mm−1 carries a raised exponent."),
        F("nn-f10", 1, "We developed a 12-pipette setup that {|footnote}{|float@Ephaptic coupling}" + NN_PAGE +
          " allows independent positioning of each pipette under visual control with micrometer accuracy",
          "page-break", "footnote", "float", "margin-stamp", "running-header", "page-number",
          note="The affiliations, the title block and abstract (extracted after the body), the margin line, the "
               "footer and the header come between the halves."),
        F("nn-f11", 2, "Typically, a single extracellular stimulation electrode (S1) was positioned 50–150 µm from "
          "the cell body (Fig. 1a).", "linebreak"),
        F("nn-f12", 2, "Synaptic activity was always pharmacologically silenced using D(−)-2-amino-5-"
          "phosphonovaleric acid (AP5) to block NMDA receptors", "soft-hyphen", "linebreak"),
        F("nn-f13", 2, "It also induces an E that oscillates at f and decays with 1/r2.", "linebreak",
          note="r2 is r squared: the 2 is a raised exponent."),
        F("nn-f14", 2, "Notably, in vivo extracellular activity does not give rise to distinctive frequency "
          "bandwidths but instead scales as 1/fn, where the exponent n is approximately 1, over the whole "
          "frequency domain{^44}.", "soft-hyphen", "glued-marker",
          note="fn is f to the power n; the citation 44 is a glued marker after 'domain'."),
        F("nn-f15", 2, "We chose I0 to induce field and voltage profiles similar to LFPs measured in vivo. For "
          "extracellular stimulation at 1 Hz with I0 = 25, 50, 100 and 200 nA, we measured fields of 0.74 ± 0.53, "
          "1.49 ± 1.06, 2.96 ± 2.11 and 5.86 ± 4.25 mV mm−1", "column-break", "two-column"),
        F("nn-f16", 2, "We injected a constant current for 9 s at the cell body that {|float@I1}" + NN_PAGE +
          " induced spiking (typically 2–4 Hz; Fig. 3a and Supplementary Fig. 3).", "page-break", "float",
          "caption", "margin-stamp", "running-header", "page-number",
          note="Figure 1's panels and caption, read into the body, come between the halves."),
        F("nn-f17", 3, "As a further measure of entrainment, we quantified the spike-triggered average (STA) of all "
          "neurons (Fig. 3c). We calculated the power spectrum of the STA as a function of frequency (Fig. 3e and "
          "Supplementary Figs. 4–9).", "column-break", "two-column", "hyphen-keep"),
        F("nn-f18", 3, "we compared the SFC between control and experiments at f for each field {|float@d xcorr}" +
          NN_PAGE + " configuration (Fig. 3f and Supplementary Figs. 4, 6 and 8).", "page-break", "float",
          "caption", "margin-stamp", "running-header", "page-number"),
        F("nn-f19", 3, "We used spike field coherence (SFC), a modified version of the STA analysis{^28,32}, to "
          "quantify the relationship between spiking and the extracellular stimulus.", "soft-hyphen",
          "glued-marker"),
        F("nn-f20", 4, "Although the average STP of all neurons indicated the strong presence of oscillations "
          "(Supplementary Figs. 4–9), the power of the STP at f did not distinguish between extracellular "
          "stimulation and control experiments", "column-break", "two-column"),
        F("nn-f21", 4, "Consistent with the single-neuron data, a field oscillating at 1 Hz synchronized spikes in "
          "all four cells such that a {|float@0.04}" + NN_PAGE + " preferred spiking-phase close to 270° emerged "
          "with increasing field strength (Fig. 4c–e).", "page-break", "float", "caption", "margin-stamp",
          "running-header", "page-number"),
        F("nn-f22", 5, "Note that all of this took place without any synaptic transmission occurring", "soft-hyphen",
          "linebreak"),
        F("nn-f23", 6, "Individual neurons can have frequency preferences that enable them to respond best to "
          "inputs in a narrow frequency window{^47}.", "soft-hyphen", "glued-marker"),
        F("nn-f24", 4, "all comparisons between the STP of control and extracellular stimulation experiments "
          "resulted in P > 0.58", "soft-hyphen", "linebreak"),
    ],
    fabricated=[
        X("nn-x01", edit("nn-f11", "50–150 µm", "50–100 µm"), "number"),
        X("nn-x02", edit("nn-f09", "less than 0.5 mV", "less than 5 mV"), "number"),
        X("nn-x03", "It also induces an E that oscillates at f and decays with 1/r.", "dropped-exponent",
          note="r squared loses its exponent."),
        X("nn-x04", "but instead scales as 1/f, where the exponent n is approximately 1", "dropped-exponent"),
        X("nn-x05", edit("nn-f09", "fields under 5 mV mm−1 (refs.", "fields under 5 mV mm (refs."),
          "dropped-exponent"),
        X("nn-x06", edit("nn-f16", "constant current", "oscillating current"), "word-swap"),
        X("nn-x07", edit("nn-f22", "without any synaptic", "with synaptic"), "negation"),
        X("nn-x08", edit("nn-f03", "the electric potential Ve", "the electric potential VE"), "case"),
        X("nn-x09", edit("nn-f09", " (refs. 12,33,34).", "."), "marker-dropped",
          note="The bracketed reference list is dropped."),
        X("nn-x10", "We injected a constant current for 9 s at the cell body that I1 0.75 1.5 0.5 0.25 S1",
          "cross-flow", note="The sentence joined to the figure labels read into it."),
        X("nn-x11", "we compared the SFC between control and experiments at f for each field d xcorr e Time period",
          "cross-flow"),
        X("nn-x12", edit("nn-f21", "close to 270°", "close to 90°"), "number"),
        X("nn-x13", "Neurons communicate via specialized molecular machines, the affect behavior, enhancing, for "
          "example, sleep-assisted memory consolidation", "cross-column", "splice"),
        X("nn-x14", edit("nn-f15", "at 1 Hz", "at 10 Hz"), "number"),
        X("nn-x15", edit("nn-f23", "in a narrow frequency window", "in a broad frequency window"), "word-swap"),
        X("nn-x16", other("ieee-f13"), "other-paper"),
    ],
)

# ---------------------------------------------------------------------------------------
PAPERS["emnlp2004_monolingual_mt_paraphrase_msword"] = dict(
    name="real-corpus-emnlp2004-monolingual-mt-paraphrase-msword",
    file="emnlp2004_monolingual_mt_paraphrase_msword.pdf",
    url=f"{RAW}/allenai/science-parse/f83983aa1b898f0e47c97f4997c57427bf277182/core/src/test/resources/mono04.pdf",
    version="EMNLP 2004 camera-ready (MS Word)",
    description=(
        "Monolingual machine translation for paraphrase generation (EMNLP 2004), two-column "
        "ACL-style layout from MS Word through PScript5 and Distiller: trailing spaces at line ends, "
        "footnotes at the foot of columns with long runs of spaces before them, footnote markers "
        "after punctuation, a table and a figure read after the body, symbol-font math."
    ),
    faithful=[
        F("emnlp-f01", 1, "We apply statistical machine translation (SMT) tools to generate novel paraphrases of input "
          "sentences in the same language.", "linebreak"),
        F("emnlp-f02", 1, "Human evaluation shows that this system outperforms baseline paraphrase generation "
          "techniques and, in a departure from previous work, offers better coverage and scalability than the "
          "current best-of-breed paraphrasing approaches.", "hyphen-drop", "linebreak"),
        F("emnlp-f03", 1, "The ability to categorize distinct word sequences as \"meaning the same thing\" is vital to "
          "applications as diverse as search, summarization, dialog, and question answering.",
          "smart-quote", "linebreak"),
        F("emnlp-f04", 1, "We describe and evaluate an SMT-based paraphrase generation system that utilizes a monotone "
          "phrasal decoder to generate meaning-preserving paraphrases across multiple domains.",
          "column-break", "two-column", "hyphen-drop"),
        F("emnlp-f05", 1, "In particular, we show that SMT techniques can be extended to paraphrase given sufficient "
          "monolingual parallel data.{^1} We show that a huge corpus of comparable and alignable sentence pairs can "
          "be culled from ready-made topical/temporal clusters of news articles", "glued-marker", "hyphen-drop"),
        F("emnlp-f06", 1, "Pang et al. (2003) obtain parallel monolingual texts from a set of 100 multiply-translated "
          "news articles.", "hyphen-drop"),
        F("emnlp-f07", 1, "Barzilay & Lee (2003) exploit the meta-information implicit in dual collections of "
          "news{|footnote}wire articles, but focus on learning sentence-level patterns that provide a basis for "
          "generation.", "page-break", "footnote", "hyphen-keep", "hyphen-drop",
          note="'news-' ends the last line of page 1; footnote 1 comes before 'wire' on page 2. The page prints "
               "'newswire' broken at the line end, so the quote joins it."),
        F("emnlp-f08", 1, "Barzilay & McKeown (2001), for example, reject the idea owing to the noisy, comparable "
          "nature of their data.", "footnote", "linebreak"),
        F("emnlp-f09", 2, "Randomly extracted on the basis of an edit distance of 5 ≤ n ≤ 20 (to allow a range of "
          "reasonably divergent candidate pairs while eliminating the most trivial substitutions), the "
          "gold-standard sentence pairs were checked by an independent human evaluator to ensure that {|footnote} "
          "they contained paraphrases before they were hand word-aligned.", "page-break", "footnote",
          "linebreak", note="Footnote 3 ends page 2 between the halves; Figure 1 heads page 3 but is read last."),
        F("emnlp-f10", 3, "Measured in terms of AER{^4}, final interrater agreement between the two annotators on the "
          "250 sentences was 93.1%.", "glued-marker", "hyphen-drop"),
        F("emnlp-f11", 3, "The identical word AER of 10.57% is unsurprising given that the domain is unrestricted and "
          "the alignment algorithm does not employ direct string matching to leverage word identity.{^5} The "
          "non-identical word AER of 20.88% may appear problematic in a system that aims to generate paraphrases",
          "glued-marker", "hyphen-drop"),
        F("emnlp-f12", 3, "Table 1 shows the results of evaluating alignment after trainng the Giza++ model.",
          "hyphen-drop", note="'trainng' is the paper's own typo."),
        F("emnlp-f13", 3, "We gathered all phrase {|footnote}{|float@Training Data Type} pairs (limited to those "
          "containing no more than five cepts, for reasons of computational efficiency) occurring in at least one "
          "aligned sentence somewhere in our training corpus into a single replacement database.",
          "page-break", "footnote", "float", "table", "hyphen-drop",
          note="The footnotes of the right column, then Table 1 (read after the body) come between the halves."),
        F("emnlp-f14", 4, "In more detail, we first gathered lexical translation probabilities of the form P(s | t) by "
          "running five iterations of Model 1 on the training corpus.", "hyphen-drop"),
        F("emnlp-f15", 4, "Given that our domain is restricted to the generation of monolingual paraphrase, "
          "interesting output can be produced without tackling the difficult problem of inter-phrase "
          "reordering.", "hyphen-drop", "glued-marker", note="Ends before the glued footnote marker 7."),
        F("emnlp-f16", 4, "In addition, fast algorithms exist for computing the n-best lists over a lattice (Soong & "
          "Huang 1991). Finally the resultant paraphrases were cleaned up in a post-processing phase to ensure "
          "output was not trivially distinguishable from other systems", "page-break", "linebreak"),
        F("emnlp-f17", 6, "This is reflected in Table 3, which provides a breakdown of four dimensions of interest, as "
          "provided by one of our independent evaluators.", "column-break", "two-column", "hyphen-drop"),
        F("emnlp-f18", 6, "Some 47% of MSA paraphrases involve significant reordering, such as an active-passive "
          "alternation, whereas the monotone PR decoder precludes anything other than minor transpositions within "
          "phrasal replacements.", "linebreak"),
        F("emnlp-f19", 7, "While the alternations our system produces are currently limited in character, the field "
          "of SMT offers a host of possible enhancements—including reordering models—affording a natural path for "
          "future improvements.", "column-break", "two-column", "hyphen-drop"),
        F("emnlp-f20", 7, "P. Koehn, F. Och, and D. Marcu. 2003. Statistical Phrase-Based Translation. In Proceedings "
          "of HLT/NAACL. V. Levenshtein. 1966. Binary codes capable of correcting deletions, insertions, and "
          "reversals.", "page-break", "hyphen-drop", note="Justified reference lines are extracted a word a line."),
        F("emnlp-f23", 3, "The formula for AER given here and in Och & Ney (2003) is intended to compare an automatic "
          "alignment against a gold standard alignment.", "footnote", "linebreak"),
        F("emnlp-f24", 3, "Because the AER is asymmetric (though each direction {|body@Table 1 shows} differs by less "
          "than 5%), we have presented the average of the directional AERs.", "footnote", "column-break",
          "two-column", note="Footnote 4 continues at the foot of the right column; the right column's body comes "
          "between its halves."),
        F("emnlp-f21", 2, "We held out a set of news clusters from our training data and extracted a set of 250 "
          "sentence pairs for blind evaluation.", "linebreak"),
        F("emnlp-f22", 4, "Collocations and other non-compositional phrases receive a higher probability as a whole "
          "than they would as independent single word replacements.", "hyphen-drop"),
    ],
    fabricated=[
        X("emnlp-x01", edit("emnlp-f21", "250 sentence pairs", "205 sentence pairs"), "number"),
        X("emnlp-x02", edit("emnlp-f10", "93.1%", "91.3%"), "number"),
        X("emnlp-x03", edit("emnlp-f02", "better coverage and scalability", "better precision and scalability"),
          "word-swap"),
        X("emnlp-x04", edit("emnlp-f22", "receive a higher probability", "do not receive a higher probability"),
          "negation"),
        X("emnlp-x05", edit("emnlp-f14", "Model 1 on", "model 1 on"), "case"),
        X("emnlp-x06", edit("emnlp-f16", " (Soong & Huang 1991)", ""), "marker-dropped"),
        X("emnlp-x07", "We gathered all phrase Training Data Type: L12 Precision 87.46%", "cross-flow",
          note="The sentence joined to the table read after it."),
        X("emnlp-x08", "checked by an independent human evaluator to ensure that Chosen on the basis of ablation "
          "experiments and optimal AER", "cross-flow"),
        X("emnlp-x09", "Because the AER is asymmetric (though each direction Table 1 shows the results of evaluating "
          "alignment after trainng the Giza++ model.", "cross-column", "splice",
          note="The footnote's first half joined to the body of the next column."),
        X("emnlp-x10", edit("emnlp-f18", "Some 47% of MSA", "Some 74% of MSA"), "number"),
        X("emnlp-x11", edit("emnlp-f11", "The identical word AER of 10.57%", "The identical word AER of 11.58%"),
          "number"),
        X("emnlp-x12", edit("emnlp-f06", "a set of 100 multiply-translated", "a set of 100 singly-translated"),
          "word-swap"),
        X("emnlp-x13", edit("emnlp-f09", "5 ≤ n ≤ 20", "5 ≤ n ≤ 2"), "number",
          note="The page has no raised exponents; this changes the bound instead."),
        X("emnlp-x14", edit("emnlp-f19", "currently limited in character", "currently unlimited in character"),
          "negation"),
        X("emnlp-x15", edit("emnlp-f01", "statistical machine translation (SMT) tools", "statistical machine "
          "translation tools"), "marker-dropped", note="The bracketed acronym is dropped."),
        X("emnlp-x16", other("nn-f03"), "other-paper"),
    ],
)

# ---------------------------------------------------------------------------------------
INF_HEAD = "{||furniture}"  # the next page's running header and page number

PAPERS["arxiv2015_influential_nodes_rotated"] = dict(
    name="real-corpus-arxiv2015-influential-nodes-rotated",
    file="arxiv2015_influential_nodes_rotated.pdf",
    url=f"{RAW}/allenai/science-parse/f83983aa1b898f0e47c97f4997c57427bf277182/core/src/test/resources/"
    "superscripttest.pdf",
    version="arXiv:1504.06236v2",
    description=(
        "Improving detection of influential nodes in complex networks (arXiv 2015), single column "
        "amsart-like layout from dvips and Ghostscript: three landscape pages (rotated tables), a "
        "vertical arXiv stamp, running headers and page numbers inside sentences that cross pages, "
        "inline math with exponents and superscripts, old LaTeX spacing accents in names."
    ),
    faithful=[
        F("inf-f01", 1, "Recently an increasing amount of research is devoted to the question of how the most "
          "influential nodes (seeds) can be found effectively in a complex network.", "ligature", "linebreak"),
        F("inf-f02", 1, "but they do not have a satisfactory dissemination potentiality in the network due to having "
          "many common neighbors (CN(1)) and common neighbors of neighbors (CN(2)).", "linebreak",
          note="The (1) and (2) of CN are raised."),
        F("inf-f04", 1, "arXiv:1504.06236v2 [cs.SI] 24 Apr 2015", "margin-stamp",
          note="The vertical stamp in the left margin."),
        F("inf-f05", 1, "These authors contributed equally to this work.", "footnote"),
        F("inf-f07", 3, "Each connection with distance j will be penalized by βj where 0 ≤ β ≤ 1.", "math-spacing",
          "linebreak", readings=("math-spacing",),
          note="βj is β to the power j; the extraction has no space after each ≤."),
        F("inf-f08", 3, "The disadvantage of using high-degree centrality measure is that it considers a node locally, "
          "i.e. based " + INF_HEAD + " on its location, and in graphs with multiple components, the seeds are likely "
          "to be selected only from a big component.", "page-break", "running-header", "page-number"),
        F("inf-f09", 4, "In 2011, L. Lü et al. [39] proposed a variant of PageRank known as LeaderRank.",
          "spacing-accent", readings=("spacing-accent",)),
        F("inf-f10", 5, "We want to show that the seeds selected each of the mentioned " + INF_HEAD + " measures "
          "mostly belong to N(i), i ≤ 2, of each other.", "page-break", "running-header", "page-number",
          "math-spacing", readings=("math-spacing",)),
        F("inf-f12", 8, "The rate of CN(1,2) of seeds of different seed sets obtained by various measures on seven "
          "datasets.", "rotated-page", "caption", "table", "ligature",
          note="Page 8 is a landscape page (/Rotate 90)."),
        F("inf-f13", 9, "A sample of information about the cardinality of CN(1,2) for different values of k on the AD "
          "dataset.", "rotated-page", "caption", "table", "ligature"),
        F("inf-f14", 15, "Spreading effectiveness of seeds by different seed sets.", "rotated-page", "caption", "table",
          "ligature"),
        F("inf-f15", 10, "To clarify how to get the values of COV in Table 2, as a sample case, the detailed "
          "information about the cardinality of CN(1,2) of top k seeds of the AD dataset is displayed in Table 3.",
          "linebreak"),
        F("inf-f16", 16, "We also showed that in the seed sets, the cardinalities |CN(1)| and |CN(2)| are "
          "significantly large", "ligature", "linebreak"),
        F("inf-f17", 16, "[15] J. A. Chevalier, D. Mayzlin, The effect of word of mouth on sales: Online book reviews, "
          "Journal of marketing research 43 (3) (2006) 345–354. " + INF_HEAD + " [16] N. S. Koh, N. Hu, E. K. "
          "Clemons, Do online reviews reflect a product's true perceived quality?", "page-break", "running-header",
          "page-number", "ligature", "smart-quote"),
        F("inf-f18", 17, "[21] D. Kempe, J. Kleinberg, É. Tardos, Maximizing the spread of influence through a "
          "social network", "spacing-accent", "ligature", readings=("spacing-accent",)),
        F("inf-f19", 17, "[39] L. Lü, Y.-C. Zhang, C. H. Yeung, T. Zhou, Leaders in social networks, the delicious "
          "case", "spacing-accent", readings=("spacing-accent",)),
        F("inf-f22", 6, "Now, it is time to show the results from Subsection 3.2. {||furniture}{|float@Algorithm 2}"
          "{||furniture}{|float@Table 2.}{||furniture}{|float@Table 3.}{||furniture} To clarify how to get the values "
          "of COV in Table 2, as a sample case, the detailed information about the cardinality of CN(1,2) of top k "
          "seeds of the AD dataset is displayed in Table 3.", "page-break", "float", "table", "rotated-page",
          "running-header", "page-number",
          note="Page 7 holds only algorithms and pages 8 and 9 are landscape tables; the text goes on on page 10."),
        F("inf-f23", 10, "Therefore, we see that the high degree node w2 is removed and since there is only one path "
          "between w1 and w2, the subsequent nodes of w2 will never get the chance of being influenced. "
          "{|float@w1} Based on the argument above, to nominate a new node (with highest degree among non-seed "
          "nodes) to be a seed, we need to evaluate |CN(1)| of seed nodes and the node which is in question.",
          "float", "caption", "ligature", note="Figure 3 stands between the two sentences."),
        F("inf-f24", 13, "as well as the numerical comparison of the spread effectiveness of SIDD with other methods on "
          "the same datasets (Table 5). {||furniture}{|float@10 15} The results assert the superiority of SIDD over "
          "the other methods.", "page-break", "float", "caption", "running-header", "page-number", "ligature",
          note="The plots of Figure 8 head page 14."),
        F("inf-f25", 2, "however by choosing v1 and v14 which are in an appropriate distance of each other, we can "
          "achieve a more effective propagation. {|float@v15}{||furniture} Hereinafter, we use the following "
          "concepts and notations throughout the paper", "page-break", "float", "caption", "running-header",
          "page-number", "ligature"),
        F("inf-f21", 5, "Since we are particularly interested in high-degree centrality measure, we have examined the "
          "number of its common seeds with other measures' seed sets in Figure 2.", "linebreak", "smart-quote"),
    ],
    fabricated=[
        X("inf-x01", "Each connection with distance j will be penalized by β where 0 ≤ β ≤ 1.", "dropped-exponent",
          note="β^j loses its exponent j."),
        X("inf-x02", edit("inf-f02", "many common neighbors (CN(1))", "many common neighbors (CN)"),
          "dropped-exponent", note="The raised (1) of CN is dropped."),
        X("inf-x03", edit("inf-f07", "0 ≤ β ≤ 1", "0 ≤ β ≤ 2"), "number"),
        X("inf-x04", edit("inf-f12", "on seven datasets", "on ten datasets"), "number"),
        X("inf-x05", edit("inf-f09", "In 2011", "In 2012"), "number"),
        X("inf-x06", edit("inf-f09", " [39] proposed", " proposed"), "marker-dropped"),
        X("inf-x07", edit("inf-f01", "can be found effectively", "cannot be found effectively"), "negation"),
        X("inf-x08", edit("inf-f09", "known as LeaderRank", "known as Leaderrank"), "case"),
        X("inf-x09", edit("inf-f16", "significantly large", "significantly small"), "word-swap"),
        X("inf-x10", "i.e. based A. SHEIKHAHMADI, M. A. NEMATBAKHSH, AND A. SHOKROLLAHI on its location",
          "cross-flow", note="The sentence joined to the running header that interrupts it."),
        X("inf-x11", "The rate of CN(1,2) of seeds of different seed sets obtained by various measures on seven "
          "datasets. Dataset Top k Degree Betweenness", "cross-flow"),
        X("inf-x12", edit("inf-f08", "only from a big component", "only from a small component"), "word-swap"),
        X("inf-x13", edit("inf-f08", "considers a node locally", "considers a node globally"), "word-swap"),
        X("inf-x14", edit("inf-f15", "displayed in Table 3", "displayed in Table 4"), "number"),
        X("inf-x15", "We want to show that the seeds selected each of the mentioned measures mostly belong to N, "
          "i ≤ 2, of each other.", "dropped-exponent", note="N(i) loses its raised (i)."),
        X("inf-x16", other("emnlp-f01"), "other-paper"),
    ],
)

# ---------------------------------------------------------------------------------------
PAPERS["clef2008_ave_answer_validation_msword"] = dict(
    name="real-corpus-clef2008-ave-answer-validation-msword",
    file="clef2008_ave_answer_validation_msword.pdf",
    url=f"{RAW}/kermitt2/grobid/b8d6bec302189e29a6c358ea513f8be834004a86/grobid-core/src/test/resources/test/"
    "Wang-paperAVE2008.pdf",
    version="CLEF 2008 working notes (MS Word)",
    description=(
        "Information synthesis for answer validation (CLEF/AVE 2008 working notes), single column "
        "LNCS-like MS Word layout: footnote markers glued to a letter and inside parentheses after "
        "a number, footnotes set off by long runs of spaces at page ends inside sentences, a results "
        "table, German example text with precomposed accents and ß, trailing spaces at line ends."
    ),
    faithful=[
        F("clef-f01", 1, "Saarland University 66123 Saarbrücken, Germany",
          "nfkc", "linebreak"),
        F("clef-f02", 1, "This report is about our participation in the Answer Validation Exercise (AVE2008).", "plain"),
        F("clef-f03", 1, "They have achieved f-measures of 0.64 and 0.61 respectively.", "plain"),
        F("clef-f04", 1, "Using Recognizing Textual Entailment (RTE-1 – Dagan et al., 2006; RTE-2 – Bar-Haim et al., "
          "2006) to do answer validation has shown a great success (Peñas et al., 2007).", "linebreak", "nfkc"),
        F("clef-f05", 1, "Therefore, based on the system we developed last year, our motivation this year is to see "
          "whether using extra information, e.g. named-entity (NE) recognition, question analysis, etc., can make "
          "further improvement on the final results.", "hyphen-keep", "linebreak"),
        F("clef-f06", 1, "Since content words usually convey most of the meaning of the sentence, we will mark the "
          "nouns as Topic Words and the verb as the Root Node.", "page-break",
          note="The sentence runs from the last line of page 1 to the first of page 2; the pages have no running "
               "header or footer."),
        F("clef-f07", 2, "Once we successfully identify the topic words in T, we trace up along the dependency parse "
          "tree to find the lowest common parent node, which will be marked as the root node of the tree skeleton "
          "of T{^1}.", "glued-marker", "linebreak",
          note="The footnote marker 1 is glued to the letter T (a name, not T to the power 1)."),
        F("clef-f08", 2, "The Root Node of T is not necessary to be a verb, instead, it could be a noun, a "
          "preposition, or even a dependency relation.", "footnote"),
        F("clef-f09", 2, "Chief requirements for the backup strategy are robustness and simplicity.", "plain"),
        F("clef-f10", 3, "Our AVE system uses the RTE system (Tera – Textual Entailment Recognition for Application) "
          "as a core component.", "caption"),
        F("clef-f11", 3, "How many \"Superside\" world championships did Steve Webster win between 1987 and 2004? "
          "(id=87)", "plain", "glued-marker", note="Ends before the glued footnote marker 2."),
        F("clef-f12", 3, "The most successful sidecar racer in Superside has been Steve Webster MBE, who has won ten "
          "world championships between 1987 and 2004.", "linebreak", first=True),
        F("clef-f13", 3, "In practice, after applying our RTE system, if the T-H pairs are covered by our main "
          "approach, we will directly use the answers; if not, we will use a threshold {|footnote} to decide the "
          "answer based on the two similarity scores.", "page-break", "footnote",
          note="Footnote 2 ends page 3 between the halves."),
        F("clef-f14", 3, "The \"id\" comes from AVE 2008 test data, i.e. \"AVE2008-annotated-test-EN.xml\".",
          "footnote", "smart-quote"),
        F("clef-f15", 4, "Based on the error analysis of last year's results, this year we use additional components "
          "to filter out noisy candidates.", "smart-quote", "linebreak"),
        F("clef-f16", 4, "In the following, we will first show the table of the results and then present an error "
          "analysis. {|float@Table 1.} In the table, we notice that both for English and German, our validation "
          "system outperforms the best QA systems, which suggests the necessity of the validation step.",
          "float", "table", "caption", "linebreak", note="Table 1 stands between the two sentences."),
        F("clef-f17", 4, "Therefore, we did some error analysis to see whether there is still some space for "
          "improvements. An interesting example in the English data is as follows, Question: What is the name of "
          "the best known piece by Jeremiah Clarke?", "page-break", "linebreak"),
        F("clef-f18", 5, "Wer war Russlands Verteidigungsminister 1994? (id=0020{^3})", "glued-marker", "nfkc",
          note="The footnote marker 3 is glued to the number 0020 inside the parentheses; it is a marker, not an "
               "exponent."),
        F("clef-f19", 5, "Wie der russische Verteidigungsminister Pawel Gratschow am Mittwoch in Tiflis weiter "
          "bekanntgab, will Rußland insgesamt fünf Militärstützpunkte in den Kaukasus-Republiken Georgien, "
          "Armenien und Aserbaidschan einrichten.", "hyphen-keep", "nfkc", "linebreak"),
        F("clef-f20", 5, "Our system wrongly validated this answer, because \"a rondo\" is not the name of that music "
          "work.", "smart-quote"),
        F("clef-f21", 5, "Due to the noisy web data, filtering some documents in the preprocessing step could be even "
          "more effective than working on the post-processing phase.", "linebreak"),
    ],
    fabricated=[
        X("clef-x01", edit("clef-f03", "0.64 and 0.61", "0.64 and 0.66"), "number"),
        X("clef-x02", edit("clef-f01", "66123", "66132"), "number"),
        X("clef-x03", edit("clef-f09", "robustness and simplicity", "robustness and speed"), "word-swap"),
        X("clef-x04", edit("clef-f20", "wrongly validated", "correctly validated"), "word-swap"),
        X("clef-x05", edit("clef-f21", "could be even more effective", "could not be more effective"), "negation"),
        X("clef-x06", edit("clef-f02", "Answer Validation Exercise", "answer validation exercise"), "case"),
        X("clef-x07", edit("clef-f04", " (Peñas et al., 2007).", "."), "marker-dropped"),
        X("clef-x08", "if not, we will use a threshold The \"id\" comes from AVE 2008 test data", "cross-flow",
          note="The sentence joined to the footnote that interrupts it."),
        X("clef-x09", "In the following, we will first show the table of the results and then present an error "
          "analysis. Table 1. Results of our submissions compared with last year's Submission Runs Recall",
          "cross-flow"),
        X("clef-x10", edit("clef-f19", "insgesamt fünf Militärstützpunkte", "insgesamt drei Militärstützpunkte"),
          "word-swap"),
        X("clef-x11", edit("clef-f12", "has won ten world championships", "has won nine world championships"),
          "word-swap"),
        X("clef-x12", edit("clef-f11", "between 1987 and 2004", "between 1987 and 2005"), "number"),
        X("clef-x13", "Wer war Russlands Verteidigungsminister 1993? (id=0020)", "number"),
        X("clef-x14", edit("clef-f15", "to filter out noisy candidates", "to filter out noisy documents"),
          "word-swap"),
        X("clef-x15", edit("clef-f06", "as Topic Words and the verb as the Root Node",
                           "as the Root Node and the verb as Topic Words"), "word-swap"),
        X("clef-x16", other("jcap-f16"), "other-paper"),
    ],
)

# ---------------------------------------------------------------------------------------
PAPERS["arxiv2022_strain_sensor_elsarticle"] = dict(
    name="real-corpus-arxiv2022-strain-sensor-elsarticle",
    file="arxiv2022_strain_sensor_elsarticle.pdf",
    url=f"{RAW}/allenai/papermage/9cd4bb48cbedab45d0f7a455711438f1632abebe/tests/fixtures/svm_word_predictor/"
    "key-error-585bcfc650f744efa7942900b742c1b64863350e.pdf",
    version="arXiv:2201.13352v1",
    description=(
        "Low-power silicon strain sensor (arXiv 2022), Elsevier elsarticle two-column preprint: a "
        "vertical arXiv stamp and the preprint line at the end of the first page inside a sentence, "
        "circuit figures and tables at the top of columns and pages, superscript affiliation letters "
        "glued to names, spacing accents, units with raised exponents."
    ),
    faithful=[
        F("strain-f01", 1, "Nicolas Roisin{^a}, Thibault P. Delhaye{^a}, Nicolas André{^a}, Jean-Pierre Raskin{^a}, "
          "Denis Flandre", "glued-marker", "spacing-accent", readings=("spacing-accent",),
          note="Each author name carries the affiliation letter a, glued to it; André is extracted as Andr´e."),
        F("strain-f02", 1, "The sensor relies on the piezoresistive effect in the silicon MOS transistors that form "
          "the current reference circuit.", "ligature", "linebreak"),
        F("strain-f03", 1, "A basic implementation with an integrated resistor reaches a strain sensitivity of 2.54 "
          "nA/µϵ (gauge factor of 324) for a temperature sensitivity of 52.06 nA/°C.", "linebreak"),
        F("strain-f04", 1, "Piezoresistive strain gauges provide a cheap solution easy to implement.", "plain"),
        F("strain-f05", 1, "Its crystallographic configuration leads to high piezoresistive variation with potential "
          "gauge factor above 150 [18]. {|footnote} One of the biggest advantage of silicon gauges lies in its "
          "straightforward integration in a complete circuit to boost and tune the performances of the sensor.",
          "column-break", "two-column", "footnote", "hyphen-drop", "ligature",
          note="The corresponding author's e-mail footnote ends the left column."),
        F("strain-f06", 1, "The piezoresistive effect in silicon is mainly due to the change in the carrier mobility "
          "that is much higher than the {|furniture@Preprint submitted} change in the dimensions [21].",
          "page-break", "margin-stamp", "ligature",
          note="The preprint line, its date and the vertical arXiv stamp come between the halves."),
        F("strain-f07", 2, "In this work, we consider MOS transistor with channel oriented in parallel and "
          "perpendicular to the [110] direction of the crystal as displayed in Fig. 1.", "hyphen-drop"),
        F("strain-f08", 2, "Illustration of the transistors orientations along <110> directions on a (100) silicon "
          "wafer.", "caption", "linebreak"),
        F("strain-f09", 2, "Under strain conditions, the mobility of the different transistors is impacted. The "
          "expression of the reference current under {|furniture@2}{||float@M1} uniaxial stress is then given by",
          "page-break", "page-number", "float", "caption", "ligature", "hyphen-drop",
          note="Figure 2 heads the next page, between the halves."),
        F("strain-f10", 3, "A second circuit is presented in Fig. 2.b where the resistor is replaced with an active "
          "load.", "linebreak"),
        F("strain-f11", 4, "The transistors are first measured separately in order to analyze the impact of strain "
          "and temperature on the mobility and the threshold voltage. Then, the currents of the four reference "
          "circuits are measured", "column-break", "two-column", "ligature", "hyphen-drop"),
        F("strain-f12", 4, "The threshold voltages in these conditions are, respectively, 73.6 mV and -330.5 mV for "
          "the NMOS and PMOS transistor. {|furniture@4} The results of the strain measurements are displayed in Fig. "
          "5.", "page-break", "page-number", "linebreak"),
        F("strain-f13", 5, "the p-type transistors show a mobility sensitivity of -0.58 cm2V−1s−1°C−1/1504.57 "
          "µm2V−1s−1°C−2 and a threshold voltage sensitivity of 0.90 mV°C−1. The dashed curves are computed using "
          "the theoretical model provided by the circuit supplier.", "column-break", "two-column", "hyphen-drop",
          note="The units carry raised exponents (cm^2 V^-1 s^-1 °C^-1)."),
        F("strain-f14", 6, "The dashed curves represent the theoretical results obtained by simulations for the "
          "temperature data and analytically for the strain results. The simulations are made using the spice "
          "model given by the UMC foundry for the UMC180 transistors", "column-break", "two-column"),
        F("strain-f15", 6, "The effect of the temperature on the supply sensitivity presents the same behavior and is "
          "displayed in Fig. 11. We {|furniture@6} obtained a sensitivity of 0.79 µA/V at 25°C that increases up to "
          "8.74 µA/V at 100°C.", "page-break", "page-number", "ligature", "hyphen-drop"),
        F("strain-f16", 7, "A maximum gauge factor of 415 (resp. -290) around 1.2 V (resp. 1.6 V) is found for β+ "
          "(resp. β−) implementation. At higher bias voltage, the current flowing through the devices increases "
          "the gate voltage of the current mirrors.", "column-break", "two-column", "ligature"),
        F("strain-f17", 7, "It is possible to reduce the current consumption (and therefore the power consumed) of "
          "the circuit by reducing the bias voltage as {|furniture@7}{||float@Implementation} displayed in Fig. 15.",
          "page-break", "page-number", "float", "table", "caption",
          note="Table 3 heads the next page, between the halves."),
        F("strain-f18", 8, "Indeed, a consumption of around 50 µW can for example be obtained with a bias voltage of "
          "0.5 V but with a gauge factor of around 1200 instead of 1773.", "linebreak"),
        F("strain-f19", 10, "[25] Y. Kanda, A graphical representation of the piezoresistance coefficients "
          "{|furniture@10} in silicon, IEEE Transactions on Electron Devices 29 (1) (1982) 64–70.",
          "page-break", "page-number", "ligature"),
        F("strain-f20", 12, "Denis Flandre received the M.S. degree in electrical engineering, and the Ph.D. and "
          "Research Habilitation degrees from the Université catholique de Louvain (UCL), Louvain-la-Neuve, "
          "Belgium, in 1986, 1990 and 1999, respectively.", "spacing-accent", "hyphen-drop", "linebreak",
          readings=("spacing-accent",), note="Justified lines of the short biography are extracted a word a line."),
        F("strain-f21", 8, "Table 3 summarizes the performances of the different implementations.", "ligature",
          "hyphen-drop"),
        F("strain-f22", 10, "Condition monitoring of the strength and stability of civil structures using thick film "
          "ceramic sensors, Measurement 46 (7) (2013) 2223\u20132231. doi:https://doi.org/10.1016/j.measurement.2013.03.018.",
          "url-break", "ligature", "linebreak", "hyphen-drop", readings=("url-break",),
          note="The DOI breaks after 'j.' at a line end; a reader writes it without a space."),
        F("strain-f23", 10, "Theory, technology and applications of piezoresistive sensors: A review, Sensors and "
          "Actuators A: Physical 281 (2018) 156\u2013175. doi:https://doi.org/10.1016/j.sna.2018.07.006.",
          "url-break", "linebreak", readings=("url-break",),
          note="The DOI breaks after '07.' at a line end."),
    ],
    fabricated=[
        X("strain-x01", edit("strain-f03", "2.54 nA/µϵ", "2.45 nA/µϵ"), "number"),
        X("strain-x02", edit("strain-f18", "around 1200 instead of 1773", "around 1200 instead of 1737"), "number"),
        X("strain-x03", edit("strain-f13", "0.90 mV°C−1.", "0.90 mV°C."), "dropped-exponent",
          note="°C^-1 loses its exponent."),
        X("strain-x04", edit("strain-f13", "-0.58 cm2V−1s−1°C−1", "-0.58 cmV−1s−1°C−1"), "dropped-exponent",
          note="cm^2 loses its exponent."),
        X("strain-x05", edit("strain-f04", "provide a cheap solution", "provide an expensive solution"), "word-swap"),
        X("strain-x06", edit("strain-f02", "The sensor relies on", "The sensor does not rely on"), "negation"),
        X("strain-x07", edit("strain-f07", "the [110] direction", "the [100] direction"), "number"),
        X("strain-x08", edit("strain-f06", " [21].", "."), "marker-dropped"),
        X("strain-x09", "It is possible to reduce the current consumption (and therefore the power consumed) of the "
          "circuit by reducing the bias voltage as Implementation βR β+ β− βsub", "cross-flow",
          note="The sentence joined to the table that interrupts it."),
        X("strain-x10", "that is much higher than the Preprint submitted to Sensors and Actuators A: Physical",
          "cross-flow"),
        X("strain-x11", edit("strain-f16", "A maximum gauge factor of 415", "A maximum gauge factor of 451"),
          "number"),
        X("strain-x12", edit("strain-f14", "the UMC180 transistors", "the umc180 transistors"), "case"),
        X("strain-x13", "Its crystallographic configuration leads to high piezoresistive variation with potential "
          "gauge factor above 150 [18]. Email address: nicolas.roisin@uclouvain.be", "cross-flow"),
        X("strain-x14", edit("strain-f15", "that increases up to 8.74 µA/V", "that decreases to 8.74 µA/V"),
          "word-swap"),
        X("strain-x15", edit("strain-f21", "Table 3 summarizes", "Table 2 summarizes"), "number"),
        X("strain-x16", other("clef-f09"), "other-paper"),
        X("strain-x17", edit("strain-f22", "j.measurement.2013.03.018", "j.measurement.2013.03.013"), "number",
          note="Another DOI: its last digit changed across the URL's line break."),
        X("strain-x18", edit("strain-f23", "10.1016/j.sna.2018.07.006", "10.1016/sna.2018.07.006"), "word-missing",
          note="The DOI loses its 'j.'."),
    ],
)
