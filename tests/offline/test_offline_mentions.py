"""How sources name one another: whole names, plurals, longer forms, names the question
gives, and mentions the corpus links."""

from __future__ import annotations

from deepresearch.offline import mentions
from deepresearch.offline.bridges import entities
from deepresearch.offline.parts import question_parts
from deepresearch.roles import SourceText
from deepresearch.text import term_set
from tests.offline.conftest import Titled


def test_a_word_of_a_longer_name_does_not_name_an_entry() -> None:
    question = "Who were Robert Hooke and Antonie van Leeuwenhoek, and what is a microscope?"
    asked = term_set(question)
    names = [term_set(n) for n in entities(question)]
    assert not mentions.title_named(term_set("Van"), asked, names)
    assert mentions.title_named(term_set("Antonie van Leeuwenhoek"), asked, names)
    assert mentions.title_named(term_set("Robert Hooke"), asked, names)
    assert mentions.title_named(term_set("Microscope"), asked, names)
    assert not mentions.title_named(term_set("Electron microscope"), asked, names)


def test_a_name_links_the_entry_titled_with_its_longer_form(titled: Titled) -> None:
    question = "How did the music of Bach change?"
    texts = {
        "Johann Sebastian Bach": "Johann Sebastian Bach was a composer of the late Baroque.",
        "Piano music (Bach)": "Piano music changed a lot over the centuries in many ways.",
        "Music": "Music changed with every century and every new instrument.",
    }
    srcs = titled(texts)
    (part,) = question_parts(question)
    assert mentions.full_names(part, srcs) == ["src-1"]  # a name, not a topic in brackets


def test_a_name_is_mentioned_whole_and_by_its_plural() -> None:
    said = mentions.TOKEN.findall("He played with Don Bradman and studied X-rays.")
    assert not mentions.mentions_name(said, ["don"])  # a word of the longer name "Don Bradman"
    assert mentions.mentions_name(said, ["don", "bradman"])
    assert mentions.mentions_name(said, ["x-ray"])  # the entry *X-ray*, mentioned in the plural


def test_a_text_s_first_word_is_part_of_a_name_unless_it_is_a_function_word() -> None:
    opening = mentions.TOKEN.findall("Microsoft Corporation is an American company.")
    assert not mentions.mentions_name(opening, ["corporation"])  # *Microsoft Corporation*
    article = mentions.TOKEN.findall("The Corporation was dissolved in 1874.")
    assert mentions.mentions_name(article, ["corporation"])


def test_an_entry_whose_text_writes_its_title_in_lower_case_is_a_common_noun() -> None:
    window = mentions.TOKEN.findall("A window is an opening in a wall, door or roof.")
    moon = mentions.TOKEN.findall("The Moon is Earth's only natural satellite.")
    assert mentions.is_common_noun(window, ["window"])
    assert not mentions.is_common_noun(moon, ["moon"])


def test_an_entry_the_corpus_links_is_named_in_lower_case_and_inside_a_longer_name() -> None:
    said = mentions.TOKEN.findall("It eats bamboo under the Eastern Han dynasty.")
    assert not mentions.mentions_name(said, ["bamboo"])  # a common noun, unlinked
    assert mentions.mentions_name(said, ["bamboo"], linked=True)  # the corpus links *Bamboo* here
    assert mentions.mentions_name(said, ["han", "dynasty"])  # a longer name holds the whole title
    parts = question_parts("Who invented paper, and under which dynasty did he serve?")
    assert parts[1].text == "under which dynasty did he serve"


def test_a_source_opens_its_document_unless_its_lines_start_past_the_first() -> None:
    page = SourceText(id="src-1", citation=1, url="https://example.org/guide#L5-9")
    assert mentions.opens_document(page)  # a web page's anchor says nothing: a whole page
    assert mentions.opens_document(page.model_copy(update={"lines": (1, 12)}))
    middle = SourceText(id="src-2", citation=2, url="/docs/guide.md", lines=(40, 52))
    assert not mentions.opens_document(middle)  # read from the field, not from the URL


def test_a_passage_title_names_its_document_and_the_name_the_document_leads_with() -> None:
    names = mentions.document_names("Rc<T>, the Reference Counted Smart Pointer › Sharing Data")
    assert names == [term_set("Rc<T>, the Reference Counted Smart Pointer"), {"rc"}]
    assert mentions.document_names("Cargo: the package manager") == [{"cargo"}]
    assert mentions.document_names("Washington, D.C.") == []  # a place, not a description
    assert mentions.document_names("Democracy") == []


def test_a_name_typed_in_lower_case_is_written_as_its_title() -> None:
    titles = ["Charles Baudelaire", "Time", "Les Fleurs du mal", "Paris (France)"]
    assert mentions.names_cased("where is charles baudelaire buried", titles) == (
        "where is Charles Baudelaire buried"
    )
    # one word, or a title not written as a name, is left as typed
    assert mentions.names_cased("what time is it in paris", titles) == "what time is it in paris"
    assert mentions.names_cased("what is les fleurs du mal", titles) == "what is les fleurs du mal"


def test_an_entry_describing_itself_as_the_kind_asked_with_other_adjectives_is_another() -> None:
    asked = "Which Austrian monk founded the science of genetics"
    kukai = "Kūkai was a Japanese Buddhist monk, calligrapher, and poet who founded Shingon."
    assert mentions.describes_otherwise(asked, kukai)
    # the same adjective, or one made from the name, before the kind or a kind beside it
    mendel = "Gregor Mendel was an Austrian biologist and Augustinian friar."
    assert not mentions.describes_otherwise(asked, mendel)
    assert not mentions.describes_otherwise(asked, "Brother Anselm was an Austria-born monk.")
    antony = "Mark Antony was a Roman politician and general."
    assert not mentions.describes_otherwise("Which Roman general crossed the Rubicon", antony)
    # an opening that does not say the kind, or a part describing no kind by adjectives
    copernicus = "Nicolaus Copernicus was a Renaissance polymath."
    assert not mentions.describes_otherwise("Which Polish astronomer placed the Sun", copernicus)
    assert not mentions.describes_otherwise("Which monk founded Shingon", kukai)
    assert mentions.describes_kind("Which German composer went deaf")
    assert not mentions.describes_kind("Which composer went deaf")
    # a name before an auxiliary is no kind described ("Which New Zealander is …")
    assert not mentions.describes_kind("Which New Zealander is considered the founder")


def test_a_one_letter_numeral_ending_a_title_counts_only_when_the_part_gives_one(
    titled: Titled,
) -> None:
    asked = term_set("When did World War I end")
    names = [term_set(n) for n in entities("When did World War I end")]
    assert mentions.title_named(term_set("World War I"), asked, names)
    assert not mentions.title_named(term_set("World War II"), asked, names)
    gregory = term_set("Did Pope Gregory compose the chant")
    assert mentions.title_named(term_set("Pope Gregory I"), gregory, [])
    srcs = titled({"Pope Gregory I": "He was pope.", "Pope Gregory VII": "He was pope too."})
    (part,) = question_parts("Did Pope Gregory compose the chant?")
    assert mentions.full_names(part, srcs) == []  # an entry has the name, as written
