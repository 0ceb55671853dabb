"""A test double that takes every prompt literally: it fills each field of the output
schema the simplest way its description allows, and never uses judgement.

It catches prompts a real model could not follow: a yes/no decision the prompt never
names keeps its default (so a prompt that forgets to mention ``continue_searching``
leaves a literal researcher stopping after one search), a required field the prompt and
schema never explain is an error, and ids and ``[n]`` citations can only be copied from
what the prompt shows.

Rules, per field type:

- ``bool``: when the prompt names the field, the value its description gives for "If
  unsure" (``If unsure, true.``); otherwise the default.
- ``str``: an id field (``…_id``) copies the first matching id shown in the prompt; a
  URL field the first URL; a field whose description mentions ``[n]`` writes one
  statement per source number shown, each cited ``[n]``; a query field the prompt's
  focus plus a running number (so it never repeats); anything else, a sentence naming
  the field and the focus.
- ``list[str]``: one item (source ids as the ``[n]`` form, to exercise the id parser).
- ``int``: the smallest value allowed; ``Literal``: its first value; nested models and
  lists of them: one filled item.
"""

from __future__ import annotations

import re
import types
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from deepresearch.errors import ProviderError, StructuredOutputError
from deepresearch.providers.base import LLMRequest, LLMResponse, Usage
from deepresearch.text import estimate_tokens

_UNSURE = re.compile(r"If unsure[^,.]*, (true|false)", re.I)
_FOCUS_LABELS = ("Your sub-query", "Sub-query", "Research focus", "Research question")
_NUMBERS = re.compile(r'\[(\d+)\]|\bn="(\d+)"')
_URL = re.compile(r'https?://[^\s"<>\]]+')


class LiteralLLM:
    """An LLM provider that follows prompts and field descriptions to the letter."""

    def __init__(self, *, name: str = "test:literal") -> None:
        self._name = name
        self.requests: list[LLMRequest] = []
        self._counter = 0

    @property
    def name(self) -> str:
        """The provider name it reports."""
        return self._name

    def __repr__(self) -> str:
        return f"LiteralLLM(calls={len(self.requests)})"

    async def complete(self, request: LLMRequest) -> LLMResponse:
        """Record ``request`` and answer with an output filled from the prompt's own words.

        Args:
            request: the LLM request.
        """
        self.requests.append(request)
        output = self._fill(request.output_type, _Prompt(request.system, request.user))
        prompt = request.system + request.user
        usage = Usage(estimate_tokens(prompt), estimate_tokens(output.model_dump_json()))
        return LLMResponse(output=output, model=self._name, usage=usage)

    def requests_for(self, output_type: type[BaseModel]) -> list[LLMRequest]:
        """The requests asked for ``output_type`` (one role's calls), oldest first.

        Args:
            output_type: the answer model the requests asked for.
        """
        return [r for r in self.requests if r.output_type is output_type]

    # -- filling ---------------------------------------------------------------------
    def _fill(self, model: type[BaseModel], prompt: _Prompt) -> BaseModel:
        values: dict[str, Any] = {}
        for name, field in model.model_fields.items():
            value = self._value(name, field, field.annotation, prompt)
            if value is not _DEFAULT:
                values[name] = value
            elif field.is_required():
                raise ProviderError(
                    f"{model.__name__}.{name} is required, but the prompt never names it",
                    provider=self._name,
                )
        try:
            return model.model_validate(values)
        except ValidationError as exc:
            # What a real provider's unparseable answer becomes at the structured-output layer.
            raise StructuredOutputError(
                f"{model.__name__}: {exc.error_count()} validation problem(s)", provider=self._name
            ) from None

    def _value(self, name: str, field: FieldInfo, annotation: Any, prompt: _Prompt) -> Any:
        description = field.description or ""
        origin, args = get_origin(annotation), get_args(annotation)
        if origin in (Union, types.UnionType):
            inner = [a for a in args if a is not type(None)]
            return self._value(name, field, inner[0], prompt) if inner else _DEFAULT
        if annotation is bool:
            unsure = _UNSURE.search(description)
            if unsure and re.search(rf"\b{name}\b", prompt.system + prompt.user):
                return unsure.group(1).lower() == "true"
            return _DEFAULT
        if origin is Literal:
            return args[0]
        if annotation is int:
            return max(1, _lower_bound(field))
        if annotation is str:
            return self._text(name, description, prompt)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            return self._fill(annotation, prompt)
        if origin is list and args:
            item = args[0]
            if isinstance(item, type) and issubclass(item, BaseModel):
                return [self._fill(item, prompt)]
            if name.endswith("ids"):
                numbers = _numbers(prompt.user)
                return [f"[{numbers[0]}]"] if numbers else []
            text = self._text(name.removesuffix("s"), description, prompt)
            return [text] if text else []
        return _DEFAULT

    def _text(self, name: str, description: str, prompt: _Prompt) -> str:
        """Text copied or built from the user message (the system prompt's examples are
        not material)."""
        user, focus = prompt.user, prompt.focus()
        if name.endswith("_id"):
            kind = name.removesuffix("_id")
            found = re.search(rf"\b({kind[:3]}\w*-\d+)\b", user) or re.search(
                r'\bid="([^"]+)"', user
            )
            return found.group(1) if found else ""
        if "url" in name:
            url = _URL.search(user)
            return url.group(0) if url else ""
        if "[n]" in description:
            numbers = _numbers(user)
            lines = [f"- A statement from source {n} about {focus} [{n}]." for n in numbers]
            return f"# {focus}\n\n" + "\n".join(lines) if lines else f"Nothing on {focus}."
        if "query" in name or "topic" in name:
            self._counter += 1
            return f"{focus} {self._counter}"
        return f"{name.replace('_', ' ').capitalize()} for: {focus}."


class _Default:
    pass


class _Prompt:
    def __init__(self, system: str, user: str) -> None:
        self.system, self.user = system, user

    def focus(self) -> str:
        """What the request is about: the most specific label the user message has."""
        for label in _FOCUS_LABELS:
            found = re.search(rf"^{label}: (.+)$", self.user, re.M)
            if found:
                return found.group(1).strip()
        return "the question"


_DEFAULT = _Default()


def _numbers(prompt: str) -> list[int]:
    found = [int(a or b) for a, b in _NUMBERS.findall(prompt)]
    return list(dict.fromkeys(found))


def _lower_bound(field: FieldInfo) -> int:
    for meta in field.metadata:
        ge = getattr(meta, "ge", None)
        if isinstance(ge, int):
            return ge
    return field.default if isinstance(field.default, int) else 1
