"""Code lines a part drew from one block are shown as one finding, led by the lines of
the block before them."""

from __future__ import annotations

from deepresearch.offline.code_blocks import CODE_BLOCK_LINES, with_code_blocks
from deepresearch.offline.unanswered import Candidate

PROGRAM = [
    "Code: `class FlaskTask(Task):`",
    "Code: `def __call__(self, *args, **kwargs):`",
    "Code: `with app.app_context():`",
    "Code: `return self.run(*args, **kwargs)`",
]
TEXT = """A Task subclass runs each task with an app context.

```python
class FlaskTask(Task):
    def __call__(self, *args, **kwargs):
        with app.app_context():
            return self.run(*args, **kwargs)
```
"""
UNITS = {
    "src-1": [
        "A Task subclass runs each task with an app context.",
        *PROGRAM,
        "The task is then registered.",
        "Code: `celery_app.set_default()`",
    ]
}


def _drawn(text: str, part: int = 0, score: float = 1.0) -> Candidate:
    return Candidate(text, "src-1", part, score, {text}, {"src-1"})


def test_the_code_lines_a_part_drew_from_one_block_are_one_finding_with_the_lines_before() -> None:
    prose = _drawn("A Task subclass runs each task with an app context.", score=2.0)
    chosen = [prose, _drawn(PROGRAM[2], score=1.5), _drawn(PROGRAM[3], score=1.0)]
    shown = with_code_blocks(chosen, UNITS, {"src-1": TEXT})
    assert [c.text for c in shown] == [
        prose.text,
        "Code: " + " ".join(line.removeprefix("Code: ") for line in PROGRAM),
    ]
    assert shown[1].score == 1.5  # the best of the lines it joins
    assert {PROGRAM[2], PROGRAM[3]} <= shown[1].terms
    # lines the text does not give one after the other (a short line between them is no
    # statement), or a source whose text is not at hand (digested): joined by an ellipsis
    gapped = TEXT.replace("        with", "        if ready:\n        with")
    for text in (gapped, ""):
        joined = with_code_blocks(chosen, UNITS, {"src-1": text})[1].text
        assert "`def __call__(self, *args, **kwargs):` … `with app.app_context():`" in joined


def test_a_line_alone_in_its_block_another_parts_line_and_prose_stay_as_drawn() -> None:
    alone = _drawn("Code: `celery_app.set_default()`")
    other_part = _drawn(PROGRAM[0], part=1)
    chosen = [alone, other_part]
    assert with_code_blocks(chosen, UNITS, {"src-1": TEXT}) == chosen


def test_lines_too_far_apart_in_a_long_block_are_joined_without_the_lines_between() -> None:
    program = [f"Code: `step_{n} = run(step_{n - 1})`" for n in range(1, CODE_BLOCK_LINES + 4)]
    units = {"src-1": program}
    chosen = [_drawn(program[3]), _drawn(program[-1])]
    shown = with_code_blocks(chosen, units, {})
    assert [c.text for c in shown] == [
        "Code: " + " … ".join(line.removeprefix("Code: ") for line in (program[3], program[-1]))
    ]


def test_a_part_answered_in_prose_is_shown_the_code_line_of_its_document_using_its_words() -> None:
    from deepresearch.offline.code_blocks import with_examples
    from deepresearch.offline.statements import statement_terms

    prose = [
        "Secure limits cookies to HTTPS traffic only.",
        "HttpOnly protects the contents of cookies from being read with JavaScript.",
        "SameSite restricts how cookies are sent with requests from external sites.",
    ]
    example = "Code: `response.set_cookie('lang', secure=True, httponly=True, samesite='Lax')`"
    other = "Code: `app.run(debug=True)`"
    closer = "Code: `set_cookie(secure=True, httponly=True, samesite='Lax')`"
    units = {"src-1": prose, "src-2": [other, example], "src-3": [example], "src-4": [closer]}
    documents = {"src-1": "/security.rst", "src-2": "/security.rst", "src-3": "/other.rst"}
    documents["src-4"] = "/security.rst"  # not cited by any finding: brings in no source
    chosen = [
        Candidate(text, "src-1", 0, 2.0 - n / 10, statement_terms(text), {"src-1", "src-2"})
        for n, text in enumerate(prose)
    ]
    shown = with_examples(chosen, units, documents)
    assert [c.text for c in shown] == [*prose, example]
    assert shown[-1].source_id == "src-2" and shown[-1].score < chosen[-1].score
    # not from another document, nor for a part that already quotes code, nor a line
    # sharing too few of the findings' words
    elsewhere = {**documents, "src-2": "/other.rst"}
    assert with_examples(chosen, units, elsewhere) == chosen
    quoting = [*chosen, Candidate(other, "src-2", 0, 0.5, statement_terms(other), {"src-2"})]
    assert with_examples(quoting, units, documents) == quoting
    plain = {"src-1": prose, "src-2": [other]}
    assert with_examples(chosen, plain, documents) == chosen
