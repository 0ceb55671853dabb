"""What may become a finding: statements, not layout (issue 12, long documents)."""

from __future__ import annotations

import threading

from deepresearch.offline import research
from deepresearch.offline.quotes import MAX_QUOTE_CHARS
from deepresearch.offline.statements import (
    MAX_STATEMENT_CHARS,
    as_text,
    shown_as_written,
    signposts,
    statement_terms,
    statements,
    title_terms,
)
from deepresearch.roles import SummarizeInputs

DOC = """# Token management

Token management is configured in the `[research]` section:

| Option | Default | Description |
|--------|---------|-------------|
| `runtime_overhead` | `60000` | Tokens reserved for CLI/IDE context |
| `content_archive_ttl_hours` | `168` | TTL for archived content (7 days) |

**Date:** 2026-02-24 and later
**Owner:** the core team of the project

```
┌──────────────┐
│ BUDGET FLOW  │
└──────────────┘
```

```python
PHASE_TO_AGENT = {
    DeepResearchPhase.GATHERING: AgentRole.GATHERER,
}
```

**Recommended execution order:** 5 → 1 → 2 → 3 → 4 → 6

- Update the reflection prompt to include:
- Explicit instruction to assess sufficiency (3+ relevant sources = likely sufficient).
- Option to signal completion.
"""


def test_table_rows_are_quoted_with_their_column_names() -> None:
    found = statements(DOC)
    assert (
        "Table row: Option: content_archive_ttl_hours; Default: 168; "
        "Description: TTL for archived content (7 days)"
    ) in found
    assert not any("Option: Option" in s or "---" in s for s in found)  # header, rule


def test_a_long_row_is_quoted_a_sentence_of_a_cell_at_a_time() -> None:
    long_cell = (
        "the full state as compressed JSON, " * 8 + "stored per save. The newest 20 are kept"
    )
    table = f"| Table | Holds |\n|---|---|\n| `snapshots` | {long_cell} |\n"
    found = statements(table)
    assert "Table row: Table: snapshots; Holds: The newest 20 are kept" in found
    assert all(s.startswith("Table row: Table: snapshots; Holds: ") for s in found)
    assert all(len(s) <= len("Table row: ") + 200 for s in found)


def test_diagrams_are_not_statements_but_code_lines_and_arrows_in_prose_are() -> None:
    found = statements(DOC)
    assert not any("BUDGET FLOW" in s or "┌" in s for s in found)
    assert "Code: `DeepResearchPhase.GATHERING: AgentRole.GATHERER,`" in found
    assert not any(s.startswith("Code: `}") for s in found)  # says nothing
    assert "Recommended execution order: 5 → 1 → 2 → 3 → 4 → 6" in found


def test_an_item_going_on_from_its_lead_in_is_stated_with_it_whatever_its_length() -> None:
    text = (
        "1. The first line should:\n\n"
        "   * contain a short description of the change (preferably 50 characters or\n"
        "     less, and no more than 72 characters)\n"
        "   * Wrap all other lines of the message at 72 columns, except for long URLs that cannot be split.\n"
    )
    found = statements(text)
    assert found[0] == (
        "The first line should: contain a short description of the change "
        "(preferably 50 characters or less, and no more than 72 characters)"
    )
    # one that opens as a sentence stands alone
    assert found[1].startswith("Wrap all other lines")
    assert "The first line should:" not in found


def test_labelled_lines_are_statements_of_their_own() -> None:
    found = statements(DOC)
    assert "Date: 2026-02-24 and later" in found
    assert "Owner: the core team of the project" in found


def test_a_wrapped_sentence_goes_on_at_a_line_opening_with_bold_or_a_dunder_name() -> None:
    # a line opening with "**" or "__" starts a statement only after a sentence's end
    text = (
        "The **html** command creates an HTML report similar to the\n"
        "**report** summary, but as an HTML file.  It is allowed only in\n"
        "__init__ methods, so the final instance variable is set once.\n"
        "**Warning** this old switch is gone from the command line."
    )
    assert statements(text) == [
        "The html command creates an HTML report similar to the report summary, but as an "
        "HTML file.",
        "It is allowed only in __init__ methods, so the final instance variable is set once.",
        "Warning this old switch is gone from the command line.",
    ]


def test_short_list_items_are_stated_together_with_their_lead_in() -> None:
    found = statements(DOC)
    assert (
        "Update the reflection prompt to include: Explicit instruction to assess "
        "sufficiency (3+ relevant sources = likely sufficient); Option to signal completion."
    ) in found
    # a list longer than one statement is stated in several, each with the lead-in
    items = "\n".join(f"- Item number {n} of the list says something" for n in range(12))
    long = statements(f"The list has these items:\n\n{items}")
    assert len(long) >= 2
    assert all(s.startswith("The list has these items:") for s in long)
    assert "The list has these items:" not in long  # the lead-in alone says nothing
    assert all(len(s) <= MAX_STATEMENT_CHARS for s in long)
    assert sum(s.count("Item number") for s in long) == 12
    # a new paragraph ends the list the lead-in introduced
    later = statements(
        "Setup takes these steps:\n\n- Install the package\n\nA new one starts.\n- x y z w"
    )
    assert later[-2:] == ["A new one starts.", "x y z w"]


def test_nested_items_take_the_lead_in_only_below_it() -> None:
    text = (
        "1. Integration tests (4 tests):\n"
        "   - Test: phase ordering correct (A → B → C)\n"
        "2. Full regression run of the suite\n"
    )
    assert statements(text) == [
        "Integration tests (4 tests): Test: phase ordering correct (A → B → C)",
        "Full regression run of the suite",
    ]


def test_a_short_nested_item_is_stated_with_its_parent_item() -> None:
    text = (
        "- 4.6 Add `_execute_directives_async()` to supervision\n"
        "  - Spawn parallel topic research calls\n"
        "  - A long item that says all it needs to say on its own without any help at all\n"
        "- 4.7 Add think steps before delegation\n"
    )
    assert statements(text) == [
        "4.6 Add _execute_directives_async() to supervision",
        "4.6 Add _execute_directives_async() to supervision: Spawn parallel topic research calls",
        "A long item that says all it needs to say on its own without any help at all",
        "4.7 Add think steps before delegation",
    ]


def test_statement_terms_hold_the_parts_of_camel_case_identifiers() -> None:
    terms = statement_terms("Code: `DeepResearchPhase.GATHERING: AgentRole.GATHERER,`")
    assert {"agent", "deep", "research", "phase", "gathering", "agentrole"} <= terms
    assert statement_terms("The printing press spread.") == {"printing", "press", "spread"}


def test_hyphenated_identifiers_say_their_parts_but_hyphenated_prose_words_do_not() -> None:
    """ "Which aliases does npm ci have" is asked of the page *npm-ci › Synopsis* and its
    quoted line "aliases: clean-install, ic"; "second-largest" is not "largest"."""
    assert {"clean", "install", "clean-install"} <= statement_terms("Code: `clean-install, ic`")
    assert statement_terms("Saturn is the second-largest planet.") == {
        "saturn",
        "second-largest",
        "planet",
    }
    assert {"npm", "ci", "synopsis"} <= title_terms("npm-ci › Synopsis")
    assert title_terms("Trans-Siberian Railway") == {"trans-siberian", "railway"}


def test_an_over_long_sentence_is_cut_at_a_clause_before_it_is_clipped() -> None:
    long = "word " * 110 + "for aggregation. the mixin is already 80% of this pattern today."
    found = statements(long)
    assert any("80%" in s for s in found)
    # clipped at the length of the longest statement the reader makes, a lead-in with code
    assert all(len(s) <= MAX_STATEMENT_CHARS + MAX_QUOTE_CHARS for s in found)
    assert any(s.endswith("...") for s in found)


def test_statements_of_statements_are_the_same_statements() -> None:
    found = statements(DOC)
    assert statements("\n\n".join(found)) == found
    # also a lead-in stated with its code, longer than a sentence alone may be
    lead = "For example, if a project uses a tool to manage its version " * 5 + "add this:"
    introduced = statements(f"{lead}\n\n```toml\n[tool.uv]\ncache-keys = [{{ git = true }}]\n```\n")
    assert len(introduced[0]) > MAX_STATEMENT_CHARS
    assert statements(as_text(introduced)) == introduced


def test_the_offline_summary_keeps_table_rows_and_code_lines_whole() -> None:
    out = research.summarize(
        SummarizeInputs(query="archived content hours", title="Token management", url="u",
                        content=DOC, question="How long is archived content kept?")
    )  # fmt: skip
    paragraphs = out.executive_summary.split("\n\n")
    assert any(p.startswith("Table row: Option: content_archive_ttl_hours") for p in paragraphs)
    assert statements(out.executive_summary) == paragraphs
    assert out.key_excerpts and all(e in paragraphs for e in out.key_excerpts)


def test_a_heading_is_the_lead_in_of_the_short_list_under_it() -> None:
    text = (
        "#### [`npm pack`](/commands/npm-pack)\n\n* `prepack`\n* `prepare`\n* `postpack`\n\n"
        "#### `fetch-retries`\n\n* Default: 2\n* Type: Number\n\nThe retries config.\n"
    )
    said = statements(text)
    assert "npm pack: prepack; prepare; postpack" in said
    assert "fetch-retries: Default: 2; Type: Number" in said
    assert statements("\n\n".join(said)) == said  # idempotent


def test_a_heading_is_the_lead_in_of_the_short_labelled_lines_under_it() -> None:
    """A setting's fields, each its own paragraph ("**Default**: `0`"), are stated with
    the heading that names the setting, as a list under it is; a labelled paragraph
    that says more ("**Resolution**: …") is prose of its own, and so are fields after it."""
    text = (
        "### `solver.min-release-age`\n\n**Type**: `int`\n\n**Default**: `0`\n\n"
        "**Environment Variable**: `POETRY_SOLVER_MIN_RELEASE_AGE`\n\n"
        "Minimum age of a release in days before it is considered.\n\n"
        "### Proxy errors\n\n**Resolution**: it is likely that you set up your proxies wrong.\n\n"
        "**Similar issues**: #1412\n"
    )
    said = statements(text)
    assert said[:2] == [
        "solver.min-release-age: Type: int; Default: 0; "
        "Environment Variable: POETRY_SOLVER_MIN_RELEASE_AGE",
        "Minimum age of a release in days before it is considered.",
    ]
    assert "Resolution: it is likely that you set up your proxies wrong." in said
    assert "Proxy errors: Similar issues: #1412" not in said
    assert statements("\n\n".join(said)) == said  # idempotent
    # one labelled line under a heading is no block of fields
    said = statements("## csv\n\n**Source code**: `Lib/csv.py`\n\nThe module reads CSV files.\n")
    assert not any(s.startswith("csv: Source code") for s in said)


def test_a_checklist_item_says_whether_it_is_done() -> None:
    said = statements(
        "Before a release we check that:\n\n- [x] Tag the release commit\n- [ ] Publish the wheel to PyPI\n"
    )
    assert (
        "Before a release we check that: Done: Tag the release commit; "
        "Not done: Publish the wheel to PyPI"
    ) in said


def test_a_code_line_with_backticks_is_one_code_span() -> None:
    (quote,) = statements("```\nhelp: insert some indirection (e.g., a `Box`, `Rc`) here\n```")
    assert quote == "Code: ``help: insert some indirection (e.g., a `Box`, `Rc`) here``"
    assert statements(quote) == [quote]


def test_a_bare_version_note_is_not_a_statement() -> None:
    found = statements(
        "The tomllib module parses TOML files into dictionaries.\n\nNew in version 3.11.\n\n"
        "Deprecated since version 3.12\n\nChanged in version 3.8: The timeout parameter was added."
    )
    # a note that says what changed is one
    assert found == [
        "The tomllib module parses TOML files into dictionaries.",
        "Changed in version 3.8: The timeout parameter was added.",
    ]


def test_a_blocks_bare_opening_line_is_not_quoted() -> None:
    found = statements(
        "```rust\nmatch coin {\n    Coin::Penny => 1,\n}\nimpl Drop for Guard {\n}\n```"
    )
    # 'match coin {' says only that a block opens; a line naming what it opens stays
    assert found == ["Code: `Coin::Penny => 1,`", "Code: `impl Drop for Guard {`"]


def test_markup_and_code_outside_a_fence_are_quoted_not_prose() -> None:
    # A PDF loses its code blocks' fences: its XML lines ran into the next sentence.
    found = statements(
        'Here is an example source file:\n<?xml version="1.0"?>\n'
        '<match type="string" offset="0" value="diff"/>\n'
        "In practice, common types are handled by the system.\n\n"
        "if (x > 0) { y = compute(x) * 2; return y; }\n\n"
        "See **prepare** (since `npm@4.0.0`) and <https://www.npmjs.com/> for more."
    )
    assert 'Code: `<match type="string" offset="0" value="diff"/>`' in found
    assert "In practice, common types are handled by the system." in found
    assert "Code: `if (x > 0) { y = compute(x) * 2; return y; }`" in found
    assert not [s for s in found if "<?xml" in s and not s.startswith("Code: ")]
    assert any(s.startswith("See prepare (since npm@4.0.0)") for s in found)  # prose


def test_bullets_of_pdfs_and_plain_text_are_list_items() -> None:
    found = statements(
        "Each mime-type node may contain these elements:\n"
        "• glob elements have a pattern attribute that file names\nare matched against.\n"
        "• magic elements contain a list of match elements.\n"
    )
    assert found == [
        "Each mime-type node may contain these elements: glob elements have a pattern "
        "attribute that file names are matched against; magic elements contain a list of "
        "match elements."
    ]


def test_a_lead_in_is_the_sentence_ending_with_the_colon() -> None:
    found = statements(
        "Use the unsafe keyword to switch. You can take five actions in unsafe Rust. "
        "Those superpowers include the ability to:\n\n- Dereference a raw pointer.\n\n"
        "- Call an unsafe function.\n"
    )
    lead = "Those superpowers include the ability to: "
    assert f"{lead}Dereference a raw pointer; Call an unsafe function." in found
    assert found.count("Use the unsafe keyword to switch.") == 1  # not repeated per item


def test_a_sentence_a_code_block_interrupts_is_stated_with_its_lead_in() -> None:
    text = (
        "This expression:\n\n```\n{\n    let x = 3;\n    x + 1\n}\n```\n\n"
        "is a block that, in this case, evaluates to `4`. That value gets bound to `y`.\n"
    )
    assert statements(text) == [
        "This expression: ... is a block that, in this case, evaluates to 4.",
        "That value gets bound to y.",
    ]


def test_a_lead_in_stated_alone_is_not_stated_twice() -> None:
    text = (
        "The following code creates a vector and pushes three elements onto it:\n"
        "```\nlet v = vec![1, 2, 3];\n```\nthen prints the length of the vector.\n"
    )
    said = statements(text)
    assert said == [
        "Code: `let v = vec![1, 2, 3];`",
        "The following code creates a vector and pushes three elements onto it: ... "
        "then prints the length of the vector.",
    ]


def test_a_lower_case_fragment_without_a_lead_in_is_not_a_statement() -> None:
    text = (
        "## Build\n\n```\nlet v = vec![1, 2, 3];\n```\n\n"
        "is how the vector is made here. The vector holds three numbers in order.\n"
    )
    assert statements(text) == [
        "Code: `let v = vec![1, 2, 3];`",
        "The vector holds three numbers in order.",
    ]


def test_a_paragraph_after_code_that_opens_with_code_or_a_capital_stands_alone() -> None:
    text = (
        "Build it with this command:\n\n```\n$ cargo build --release\n```\n\n"
        "`cargo build --release` puts the binary in target/release instead.\n\n"
        "```\n$ cargo run --quiet\n```\n\nThe program then prints its greeting.\n"
    )
    assert statements(text) == [
        "Build it with this command: $ cargo build --release",
        "cargo build --release puts the binary in target/release instead.",
        "Code: `$ cargo run --quiet`",
        "The program then prints its greeting.",
    ]


def test_the_sentence_right_before_the_block_leads_even_when_short() -> None:
    text = (
        "You can supply the path as a string in the manifest file. For example:\n\n"
        '```\n{"bin": "./cli.js"}\n```\n\nwould be the same as writing the full table.\n'
    )
    assert statements(text)[-1] == "For example: ... would be the same as writing the full table."


def test_a_block_after_a_list_item_does_not_resume_an_earlier_paragraph() -> None:
    text = (
        "An earlier paragraph that says something about the setup.\n\n"
        "- an item of the list\n  that goes on over a second line\n"
        "```\nlet v = vec![1, 2, 3];\n```\n"
        "is shown. The vector then holds three numbers in order.\n"
    )
    said = statements(text)
    assert not any("..." in s for s in said)
    assert said[-1] == "The vector then holds three numbers in order."


TRAITS = """Closures implement one, two, or all three of these traits, depending on the body:

- FnOnce applies to closures that can be called once. All closures implement at least this trait.
- FnMut applies to closures that might mutate the captured values. These closures can be called more than once.

A closure is a function. It can capture its environment.
"""


def test_a_list_item_of_a_few_sentences_is_one_statement() -> None:
    said = statements(TRAITS)
    assert (
        "FnMut applies to closures that might mutate the captured values. "
        "These closures can be called more than once." in said
    )
    assert "These closures can be called more than once." not in said
    # A paragraph is stated a sentence at a time, and an over-long item too.
    assert "A closure is a function." in said and "It can capture its environment." in said
    long = "- " + " ".join(["The tool reads every file in the folder it is given."] * 8)
    assert all(len(s) <= MAX_STATEMENT_CHARS for s in statements(long))
    assert len(statements(long)) == 8


def test_statements_written_as_text_read_back_as_the_same_statements() -> None:
    said = statements(TRAITS)
    assert statements(as_text(said)) == said
    assert statements("\n\n".join(said)) != said  # a whole item as a paragraph would split
    out = research.summarize(
        SummarizeInputs(query="closure traits", title="Closures", url="u", content=TRAITS,
                        question="Which traits can a closure implement?")
    )  # fmt: skip
    assert statements(out.executive_summary) == said


def test_a_lone_asterisk_is_text_and_emphasis_pairs_are_marks() -> None:
    text = (
        'Optimize every dependency with [profile.dev.package."*"] in *your* Cargo.toml; '
        "**all** of them, since 2 * 3 is six."
    )
    assert statements(text) == [
        'Optimize every dependency with [profile.dev.package."*"] in your Cargo.toml; '
        "all of them, since 2 * 3 is six."
    ]
    # a code span is literal: its underscores are not emphasis marks
    coded = "Define `__init__()` and guard with `if __name__ == '__main__':` in **`main.py`**."
    assert statements(coded) == [
        "Define __init__() and guard with if __name__ == '__main__': in main.py."
    ]
    # underscores around a word emphasise it; inside a word ('snake_case') they are text
    said = "Its dependencies are _not_ installed for snake_case_name or _private modules."
    assert statements(said) == [said.replace("_not_", "not")]
    # a dunder name is a name, also read back from a summary that lost its code span
    dunder = "Briefcase runs the package, so a ``__main__.py`` file **must** exist in it."
    said = statements(dunder)
    assert said == ["Briefcase runs the package, so a __main__.py file must exist in it."]
    assert statements(said[0]) == said
    hooks = "The __subclasshook__() method says a class with __iter__() in its __dict__ counts."
    assert statements(hooks) == [hooks]
    # emphasis around a bracketed note, over sentences: no mark is left half-open
    note = "The news/ folder *[pip stores news fragments. A file per change is added.]*"
    assert [s for s in statements(note) if "*" in s] == []


def test_a_code_line_under_a_table_header_is_quoted_with_it() -> None:
    text = (
        "```toml\n[profile.dev]\nopt-level = 0\n\n[profile.release]\nopt-level = 3\n"
        "[package.metadata]\n```\n"
    )
    assert statements(text) == [
        "Code: `[profile.dev] opt-level = 0`",
        "Code: `[profile.release] opt-level = 3`",
        "Code: `[package.metadata]`",  # a header with no line under it: quoted alone
    ]


def test_a_lead_in_and_the_short_code_block_it_introduces_are_one_statement() -> None:
    short = "The defaults of the two profiles:\n\n```toml\n[profile.dev]\nopt-level = 0\n```\n"
    assert statements(short) == ["The defaults of the two profiles: [profile.dev] opt-level = 0"]
    # A longer block, or a program's lines, stay quoted a line at a time, the lead-in a
    # statement of its own.
    lines = "".join(f"debug-level-{n} = {n}\n" for n in range(7))
    long = f"Set these options in the file:\n\n```\n{lines}```\n"
    assert statements(long)[0] == "Set these options in the file:"
    assert len(statements(long)) == 8
    # a whole sentence leading into a one-line setting is still stated with it
    lead = (
        "For example, if a project specifies dependencies in pyproject.toml but uses "
        "setuptools-scm to manage its version, and should thus be rebuilt whenever the "
        "commit hash or dependencies change, you can add the following to the project's "
        "pyproject.toml:"
    )
    keys = 'cache-keys = [{ file = "pyproject.toml" }, { git = { commit = true } }]'
    said = statements(f"{lead}\n\n```toml\n[tool.uv]\n{keys}\n```\n")
    assert said == [f"{lead} [tool.uv] {keys}"]
    program = 'Here is the program:\n\n```\nfn main() {\n    println!("hello there");\n}\n```\n'
    assert statements(program) == ["Here is the program:", 'Code: `println!("hello there");`']


def test_a_lead_in_ending_with_an_ellipsis_introduces_its_code_as_a_colon_does() -> None:
    # some documentation writes "..." before each example
    text = (
        "Using the truststore package to support system certificate stores...\n\n"
        "```python\nimport truststore\nctx = truststore.SSLContext()\n```\n\n"
        "A paragraph may end with an ellipsis...\n\nAnd the text goes on after it.\n"
    )
    assert statements(text) == [
        "Using the truststore package to support system certificate stores: "
        "import truststore; ctx = truststore.SSLContext()",
        "A paragraph may end with an ellipsis...",
        "And the text goes on after it.",
    ]


def test_a_label_too_short_to_state_is_stated_with_the_code_right_after_it() -> None:
    # a tab's title ("PowerShell:") says which shell each command is for
    text = (
        "To read the exit code, run the following:\n\nPowerShell:\n\n```\n"
        "> echo $LASTEXITCODE\n```\n\nCommand Prompt:\n\n```\n> echo %ERRORLEVEL%\n```\n"
    )
    # ... and with the lead-in the labels follow, as a list item is
    assert statements(text) == [
        "To read the exit code, run the following: PowerShell: > echo $LASTEXITCODE",
        "To read the exit code, run the following: Command Prompt: > echo %ERRORLEVEL%",
    ]
    alone = "Ran it.\n\nPowerShell:\n\n```\n> echo $LASTEXITCODE\n```\n"
    assert statements(alone) == ["PowerShell: > echo $LASTEXITCODE"]
    # a label followed by prose labels nothing and is no statement
    assert statements("Linux:\n\nThe cache lives in your home folder.") == [
        "The cache lives in your home folder."
    ]


def test_a_caption_labels_its_block_and_is_not_a_statement() -> None:
    text = (
        "Consider the program in Listing 6-6 that matches on an Option value.\n\n"
        '```\nmatch config_max {\n    Some(max) => println!("The maximum is {max}"),\n'
        "    _ => (),\n}\n```\n\n"
        "Listing 6-6: A `match` that only cares about executing code when the value is `Some`\n\n"
        "Figure 4-1: The representation in memory of a String holding the value hello\n\n"
        "Table 3 \u2013 Integer types and their sizes in memory\n\n"
        '<span class="caption">Listing 6-7: Using `if let` with an `else`</span>\n\n'
        "If the value is Some, we print out the value in the Some variant."
    )
    said = statements(text)
    assert not any(s.startswith(("Listing", "Figure", "Table 3")) for s in said), said
    assert not any("Listing 6-7" in s for s in said), said  # a caption in markup
    assert "Consider the program in Listing 6-6 that matches on an Option value." in said
    assert "If the value is Some, we print out the value in the Some variant." in said


def test_a_caption_shaped_line_inside_a_paragraph_or_list_is_text() -> None:
    text = (
        "Figure 2: the loop runs until the queue is empty\nand then the worker exits.\n\n"
        "- Example 1: install the package globally with the -g flag"
    )
    said = statements(text)
    assert said[0].startswith("Figure 2: the loop runs until the queue is empty and then")
    assert said[1] == "Example 1: install the package globally with the -g flag"


def test_a_sentence_about_the_text_itself_is_a_signpost() -> None:
    about_text = [
        "Finally, we'll discuss lifetimes: generics that tell the compiler how references relate.",
        "Let's look at the features Rust provides for writing tests.",
        "In this chapter, we will build a web server.",
        "We’re going to add a loop to the guessing game.",
        "For this example, we've created variables with hardcoded values.",
        "This chapter covers calling panic! first and then returning Result values.",
        "This example's purpose is to give you a visual guide to how drop works.",
        "The next section shows how to publish a crate.",
        "Listing 15-14 shows a CustomSmartPointer struct whose drop prints a message.",
        "The code in Listing 19-3 determines the background color from several checks.",
    ]
    about_subject = [
        "Let's say you're working with the uuid crate and discover a bug.",
        "For example, let's suppose the build runs twice.",
        "If we call println! in a test and it passes, we won't see its output.",
        "In Chapter 6, we discussed how to use if let as a shorter match.",
        "This section of Cargo.toml can be used to override dependencies.",
        "This example adds a dependency on the time crate.",
        "Willow trees grow near water.",
        "Listing 19-3 shows that if let, else if and else if let can be mixed.",
        "Example 1: npm install -g foo installs the package globally.",
    ]
    assert [s for s in about_text if not signposts(s)] == []
    assert [s for s in about_subject if signposts(s)] == []


def test_no_text_has_no_statements() -> None:
    assert statements("") == []
    assert statements("\n\n") == []


def test_a_code_comment_written_as_prose_is_a_statement() -> None:
    text = (
        "Set up the test database as follows.\n\n```python\n"
        "TESTING = config('TESTING', cast=bool, default=False)\n"
        "# Use 'force_rollback' during testing, to ensure we do not persist\n"
        "# database changes between each test case.\n"
        "# Short note\n"
        "database = Database(URL, force_rollback=TESTING)\n```\n\n"
        "```console\n# apt-get install the whole set of packages needed here\n```\n"
    )
    said = statements(text)
    assert (
        "Use 'force_rollback' during testing, to ensure we do not persist database changes "
        "between each test case. Short note." in said
    )
    # in a shell session "#" is a root prompt's command, not a comment
    assert not any("apt-get" in s for s in said)


def test_a_short_block_stated_with_its_lead_in_keeps_its_comments_out() -> None:
    text = (
        "You can specify client-side certificates, using the load_cert_chain API:\n\n"
        "```python\nctx = ssl.create_default_context()\n"
        "# Optionally also give the keyfile or the password here\n"
        'ctx.load_cert_chain(certfile="path/to/client.pem")\n```\n'
    )
    said = statements(text)
    assert (
        len(said) == 1 and said[0].startswith("You can specify") and "load_cert_chain(" in said[0]
    )


def test_each_paragraph_under_a_reference_entrys_name_is_stated_with_it() -> None:
    # how reST renders '.. option:: --warn-unreachable' over its indented description
    text = (
        "`--warn-unreachable`\n\n"
        "    This flag will make mypy report an error whenever it finds code that can\n"
        "    never run.\n\n"
        "    It is not enabled by the strict flag. Turn it on yourself.\n\n"
        "    New in version 0.800:\n\n"
        "The options below change how imports are followed by the checker.\n"
    )
    assert statements(text) == [
        "--warn-unreachable: This flag will make mypy report an error whenever it finds "
        "code that can never run.",
        "--warn-unreachable: It is not enabled by the strict flag.",
        "Turn it on yourself.",
        # a version note says only when; the entry ends where the text is not indented
        "The options below change how imports are followed by the checker.",
    ]
    # a code span alone over text that is not indented is no entry's name
    assert statements("`--strict`\n\nThis flag turns on many checks at once for you.\n") == [
        "This flag turns on many checks at once for you."
    ]


def test_a_code_block_in_a_block_quote_is_read_as_a_code_block() -> None:
    # MkDocs's own docs quote examples ("> ```python"): such a block was once read as
    # starting where it did not, and the reader never got past its first line.
    text = (
        "Define the hook in your plugin module like this:\n\n> ```python\n"
        "> def on_page_markdown(markdown, page):\n>     return markdown.upper()\n> ```\n\n"
        "> > ```yaml\n> > site_name: My Docs\n> > ```\n\n"
        "> | Option | Default |\n> | --- | --- |\n> | strict | false |\n\n"
        "The event runs once for every page of the site."
    )
    read: list[list[str]] = []
    # in a thread, so a reader stuck on the block fails the test rather than hanging it
    reader = threading.Thread(target=lambda: read.append(statements(text)), daemon=True)
    reader.start()
    reader.join(timeout=30)
    assert read == [
        [
            "Define the hook in your plugin module like this:",
            "Code: `def on_page_markdown(markdown, page):`",
            "Code: `return markdown.upper()`",
            "Code: `site_name: My Docs`",
            "Table row: Option: strict; Default: false",
            "The event runs once for every page of the site.",
        ]
    ]


def test_an_item_defining_a_term_states_the_term_with_its_definition() -> None:
    text = (
        "The following settings keys are also used to control versioning:\n\n"
        "* `DEFAULT_VERSION`. The value that should be used for `request.version` when no "
        "versioning information is present. Defaults to `None`.\n"
        "* `VERSION_PARAM`. The string that should be used for any versioning parameters. "
        "Defaults to `'version'`.\n"
    )
    said = statements(text)
    assert (
        "DEFAULT_VERSION: The value that should be used for request.version when no "
        "versioning information is present. Defaults to None." in said
    )
    assert any(s.startswith("VERSION_PARAM: The string") for s in said)
    # a short first sentence of several words is no term ("It never exits.")
    item = statements("* It never exits. The runner ends the test when its time is up.")
    assert item and not any(s.startswith("It never exits:") for s in item)


def test_a_long_lead_in_is_stated_once_whole_with_its_items() -> None:
    lead = (
        "You may propose a new entry for this catalogue, but there are a few rules you "
        "*must* meet or the proposal will be declined without any further discussion:"
    )
    found = statements(f"{lead}\n\n- the entry must be widely used\n- the entry must be free\n")
    # the lead-in alone says only that a list follows; said whole, before the items
    assert not any(s.endswith("discussion:") for s in found)
    assert any(
        "declined without any further discussion: the entry must be widely used; the "
        "entry must be free" in s
        for s in found
    )


def test_a_diagrams_source_is_no_statement() -> None:
    """A Mermaid block's lines ("USER -->|run| TOOL") are drawn, not said; the prose
    around it is."""
    text = (
        "The tool runs each app in its own environment.\n\n"
        '```mermaid\nflowchart LR\nUSER["you"] -->|"install"| TOOL["tool"]\n'
        'TOOL -->|"creates"| VENV["isolated venvs"]\n```\n\n'
        "An uninstall leaves nothing behind."
    )
    said = statements(text)
    assert said == [
        "The tool runs each app in its own environment.",
        "An uninstall leaves nothing behind.",
    ]


def test_a_statement_is_shown_with_the_code_spans_its_page_marks() -> None:
    text = (
        "For those cases, mark the *CLI option* with `is_eager=True`. `SSL_CERT_DIR` can\n"
        "name a folder. Pass ``--invert`` to flip it, or [`typer.Exit`](exit.md) to stop.\n\n"
        "- `DEFAULT_VERSION`. The value used when no version is given. Defaults to `None`.\n"
    )
    plain = statements(text)
    # read as plain text, split where the plain text splits
    assert plain[:3] == [
        "For those cases, mark the CLI option with is_eager=True.",
        "SSL_CERT_DIR can name a folder.",
        "Pass --invert to flip it, or typer.Exit to stop.",
    ]
    shown = shown_as_written(text)
    assert [shown.get(p, p) for p in plain[:3]] == [
        "For those cases, mark the CLI option with `is_eager=True`.",
        "`SSL_CERT_DIR` can name a folder.",
        "Pass ``--invert`` to flip it, or `typer.Exit` to stop.",
    ]
    # a statement joined from pieces of the text is shown as read
    assert plain[3].startswith("DEFAULT_VERSION: The value") and plain[3] not in shown
    assert statements(as_text([shown[p] for p in plain[:3]]), code_marked=True) == [
        shown[p] for p in plain[:3]
    ]
