"""Structured output shared by the remote providers: the schema prompt, JSON extraction
from chatty model text, and the repair loop that shows the model its validation error.

A vendor module supplies one ``Send`` callable (translate the request plus these extra
messages to its wire format, return the answer); :func:`complete_structured` wraps it in
retries, the shared gate and :func:`complete_with_repair`, which turns the answers into a
validated pydantic instance or a :class:`StructuredOutputError` — never a silent empty
result.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from deepresearch.config import Config
from deepresearch.errors import StructuredOutputError
from deepresearch.providers.base import LLMRequest, LLMResponse, Message, TextOutput, Usage
from deepresearch.providers.resilience import RetryPolicy, call_with_retries, gate_for

_THINK = re.compile(r"<(think|thinking|reasoning)>.*?</\1>", re.DOTALL | re.IGNORECASE)
# A reasoning block whose closing tag was cut off (max tokens) hides everything after it.
_OPEN_THINK = re.compile(r"^\s*<(think|thinking|reasoning)>(?!.*</\1>).*", re.DOTALL | re.I)
# Where real JSON starts (not a brace in prose such as "{carefully}").
_JSON_START = re.compile(r"[\[{]\s*[\"\[{]")
_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
# What a StructuredOutputError tells the user to do.
REPAIR_ADVICE = (
    "Use a model that follows JSON schemas more reliably (Config.llm or Config.role_models), "
    "raise Config.max_repair_attempts, or try Config.structured_output='prompt'; "
    "the last answer is in the error's raw_text."
)


@dataclass
class Answer:
    """One model answer: parsed data (native tool/JSON mode) or text to parse.
    ``cut_off``: the server said the answer stopped at the output limit (OpenAI
    ``finish_reason: length``, Anthropic ``stop_reason: max_tokens``)."""

    text: str
    usage: Usage
    data: dict[str, Any] | None = None
    cut_off: bool = False


# Send the conversation plus ``extra`` messages (the repair turns) and return the answer.
Ask = Callable[[list[Message]], Awaitable[Answer]]
# A vendor module's request translation: send ``request`` plus the repair turns once.
Send = Callable[[LLMRequest, list[Message]], Awaitable[Answer]]


class _AdaptedRequest(Exception):
    """Raised by a vendor's ``Send`` after the server rejected an optional feature
    (temperature, native structured output) and the vendor switched it off for good: the
    request is re-sent at once without it, outside the retry budget."""


def json_schema(output_type: type[BaseModel]) -> dict[str, Any]:
    """The JSON schema of ``output_type`` (sent for native structured output).

    Args:
        output_type: the pydantic model of the answer.
    """
    return output_type.model_json_schema()


def schema_instructions(output_type: type[BaseModel]) -> str:
    """Appended to the system prompt when the server has no native structured output."""
    schema = json.dumps(json_schema(output_type), separators=(",", ":"))
    return (
        f'Answer with one JSON object that matches the JSON schema named "{output_type.__name__}" '
        "below. Output only the JSON object: no prose before or after it, no Markdown.\n"
        f"Schema: {schema}"
    )


def strip_reasoning(text: str) -> str:
    """``text`` without ``<think>`` blocks (reasoning models put them before the answer).

    Args:
        text: a model's answer.
    """
    return _OPEN_THINK.sub("", _THINK.sub("", text)).strip()


def extract_json(text: str) -> Any:
    """The JSON value in a model's text: fenced, bare, or embedded in chatter.

    Raises ValueError saying what was wrong when no JSON value can be found.
    """
    cleaned = strip_reasoning(text)
    if not cleaned:
        raise ValueError("the answer was empty (or only a reasoning block)")
    candidates = [m.strip() for m in _FENCE.findall(cleaned)] + [cleaned]
    decoder = json.JSONDecoder()
    broken = False
    for candidate in candidates:
        try:
            return json.loads(candidate)
        except json.JSONDecodeError:
            pass
        # Scan for the first '{' (or '[') that starts a complete JSON value.
        for match in re.finditer(r"[\[{]", candidate):
            try:
                value, _ = decoder.raw_decode(candidate, match.start())
            except json.JSONDecodeError:
                if _JSON_START.match(candidate, match.start()):
                    # A JSON value that does not close (cut off, or malformed): never read
                    # an object nested inside it as if it were the answer.
                    broken = True
                    break
                continue
            return value
    if broken:
        raise ValueError("the JSON in the answer is incomplete or malformed (cut off?)")
    raise ValueError("no JSON object found in the answer")


class NativeOutput:
    """What one model (one provider object) has shown about native structured output.

    Each call decides from this evidence: the first attempt uses the native schema while it
    is ``enabled``; every repair turn is prompted (schema and validation error in the prompt).
    A single malformed answer never switches native off: only a server that rejects the
    feature (HTTP 400) or a model whose native answers failed ``IGNORED_AFTER`` times without
    ever succeeding is remembered as ignoring it — for that model only.
    """

    IGNORED_AFTER = 2

    def __init__(self, mode: str) -> None:
        self.mode = mode  # Config.structured_output: auto | native | prompt
        self.enabled = mode != "prompt"
        self.hits = 0  # first attempts whose native answer validated
        self.misses = 0  # first attempts whose native answer did not

    def for_attempt(self, repair_turns: list[Message]) -> bool:
        """Native schema for this attempt? Repairs are prompted unless native is forced."""
        return self.enabled and (not repair_turns or self.mode == "native")

    def observe(self, valid_first_time: bool) -> None:
        """Count whether a native answer validated the first time; in ``auto`` mode, native
        output is turned off for a server whose answers keep failing.

        Args:
            valid_first_time: the answer validated without repair.
        """
        if valid_first_time:
            self.hits += 1
            return
        self.misses += 1
        if self.mode == "auto" and self.hits == 0 and self.misses >= self.IGNORED_AFTER:
            self.enabled = False

    def rejected(self) -> bool:
        """The server refused the native feature: switch it off (``auto`` only); True if so."""
        if self.mode != "auto" or not self.enabled:
            return False
        self.enabled = False
        return True

    def __repr__(self) -> str:
        return f"NativeOutput(enabled={self.enabled}, hits={self.hits}, misses={self.misses})"


def validate(data: Any, output_type: type[BaseModel]) -> BaseModel:
    """Validate data; a one-element list or a {"<name>": {...}} wrapper is unwrapped."""
    if isinstance(data, list) and len(data) == 1:
        data = data[0]
    try:
        return output_type.model_validate(data)
    except ValidationError:
        if isinstance(data, dict) and len(data) == 1:
            (inner,) = data.values()
            if isinstance(inner, dict):
                try:
                    return output_type.model_validate(inner)
                except ValidationError:
                    pass
        raise


def parse_answer(answer: Answer, output_type: type[BaseModel]) -> BaseModel:
    """Raise ValueError (or ValidationError, a subclass) with a message for the model."""
    data = answer.data if answer.data is not None else extract_json(answer.text)
    return validate(data, output_type)


def was_cut_off(text: str) -> bool:
    """True when the answer is a JSON value that stops before it is closed: the model hit
    its output limit (an unclosed string, object or array at the end of the text)."""
    body = re.sub(r"^```(?:json|JSON)?\s*", "", strip_reasoning(text)).strip()
    if not body.startswith(("{", "[")):
        return False
    depth, in_string, escaped = 0, False, False
    for char in body:
        if in_string:
            escaped, in_string = (
                (not escaped and char == "\\"),
                in_string and (escaped or char != '"'),
            )
        elif char == '"':
            in_string = True
        elif char in "{[":
            depth += 1
        elif char in "}]":
            depth -= 1
    return in_string or depth > 0


def repair_prompt(error: Exception, output_type: type[BaseModel], *, cut_off: bool = False) -> str:
    """The message that sends an invalid (or cut-off) answer back for repair, naming what
    was wrong.

    Args:
        error: why the answer did not validate.
        output_type: the expected answer model.
        cut_off: the answer stopped at the output-token limit.
    """
    if cut_off:
        return (
            "Your answer was cut off before the JSON object was complete (it reached the "
            "output length limit). Reply again with only one complete JSON object that "
            f'matches the schema "{output_type.__name__}", written more briefly.'
        )
    if isinstance(error, ValidationError):
        problems = "; ".join(
            f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}"
            for e in error.errors()[:10]
        )
    else:
        problems = str(error)
    return (
        f"Your answer could not be used: {problems}. Reply again with only one JSON object "
        f'that matches the schema "{output_type.__name__}", fixing these problems.'
    )


@dataclass
class Structured:
    """A validated structured answer with its usage, raw text and repair count."""

    output: BaseModel
    usage: Usage
    raw_text: str
    repair_attempts: int


async def complete_with_repair(
    ask: Ask,
    output_type: type[BaseModel],
    *,
    max_repairs: int,
    provider: str,
) -> Structured:
    """Ask, validate, and on failure ask again showing the error (up to max_repairs times)."""
    usage = Usage()
    extra: list[Message] = []
    last_text = ""
    error: Exception = ValueError("no answer")
    for attempt in range(max_repairs + 1):
        answer = await ask(extra)
        usage.input_tokens += answer.usage.input_tokens
        usage.output_tokens += answer.usage.output_tokens
        last_text = answer.text or json.dumps(answer.data)
        try:
            output = parse_answer(answer, output_type)
        except ValueError as exc:  # ValidationError is a ValueError
            extra = [
                *extra,
                Message("assistant", last_text or "(empty answer)"),
                Message(
                    "user",
                    repair_prompt(
                        exc, output_type, cut_off=answer.cut_off or was_cut_off(last_text)
                    ),
                ),
            ]
            error = exc
            continue
        return Structured(output, usage, last_text, attempt)
    raise StructuredOutputError(
        f"{provider} did not return a valid {output_type.__name__} after "
        f"{max_repairs} repair attempt(s): {_one_line(error).rstrip('.')}. {REPAIR_ADVICE}",
        provider=provider,
        raw_text=last_text,
    )


def _one_line(error: Exception) -> str:
    return " ".join(str(error).split())[:400]


async def complete_structured(
    request: LLMRequest,
    send: Send,
    *,
    provider: str,
    endpoint: str,
    config: Config,
    retry: RetryPolicy,
    native: NativeOutput | None = None,
) -> LLMResponse:
    """The loop both remote LLM providers share: each answer is fetched with retries inside
    the gate shared by every provider object on ``endpoint``, re-sent at once after an
    :class:`_AdaptedRequest`, then validated and repaired (:func:`complete_with_repair`).
    ``native`` (the vendor's per-model evidence) learns whether the first answer was usable."""
    gate = gate_for(endpoint, config)

    async def adapting(extra: list[Message]) -> Answer:
        while True:  # at most twice: each adaptation switches one feature off for good
            try:
                return await send(request, extra)
            except _AdaptedRequest:
                continue

    async def ask(extra: list[Message]) -> Answer:
        return await call_with_retries(
            lambda: adapting(extra), policy=retry, gate=gate, paced_on_the_wire=True
        )

    if request.wants_text:
        return await complete_text(
            ask,
            request.output_type,
            max_retries=config.models.max_repair_attempts,
            provider=provider,
        )
    native_first = native is not None and native.for_attempt([])
    try:
        result = await complete_with_repair(
            ask,
            request.output_type,
            max_repairs=config.models.max_repair_attempts,
            provider=provider,
        )
    except StructuredOutputError:
        if native_first and native is not None:
            native.observe(False)
        raise
    if native_first and native is not None:
        native.observe(result.repair_attempts == 0)
    return LLMResponse(
        output=result.output,
        model=provider,
        usage=result.usage,
        raw_text=result.raw_text,
        repair_attempts=result.repair_attempts,
    )


CONTINUE_PROMPT = (
    "Your answer was cut off at the output length limit. Continue exactly where it "
    "stopped: do not repeat anything already written and do not start over."
)
EMPTY_PROMPT = "Your answer was empty. Reply with the text itself."


def plain_text(text: str, output_type: type[TextOutput]) -> str:
    """A free-text answer without a reasoning block, without one fence around the whole
    of it, and unwrapped from ``{"<field>": "..."}`` when a model answered JSON anyway."""
    cleaned = strip_reasoning(text)
    fenced = re.fullmatch(r"```[\w-]*\n(.*?)\n?```", cleaned, re.DOTALL)
    if fenced:
        cleaned = fenced.group(1).strip()
    if cleaned.startswith("{"):
        try:
            data = json.loads(cleaned)
        except json.JSONDecodeError:
            return cleaned
        value = data.get(output_type.text_field()) if isinstance(data, dict) else None
        if isinstance(value, str):
            return value.strip()
    return cleaned


async def complete_text(
    ask: Ask, output_type: type[BaseModel], *, max_retries: int, provider: str
) -> LLMResponse:
    """A free-text answer: an answer cut off at the output limit is continued (up to
    ``max_retries`` times) and the parts joined; an empty answer is asked for again. An
    answer still cut off after that is returned with ``cut_off`` set, never passed off as
    complete."""
    assert issubclass(output_type, TextOutput)
    usage = Usage()
    parts: list[str] = []
    extra: list[Message] = []
    empty = continued = 0
    while True:
        answer = await ask(extra)
        usage.input_tokens += answer.usage.input_tokens
        usage.output_tokens += answer.usage.output_tokens
        if parts or answer.text.strip():
            parts.append(answer.text)
        elif empty < max_retries:
            empty += 1
            extra = [*extra, Message("assistant", "(empty answer)"), Message("user", EMPTY_PROMPT)]
            continue
        else:
            raise StructuredOutputError(
                f"{provider} gave an empty answer {empty + 1} time(s).",
                provider=provider,
                raw_text=answer.text,
            )
        if not answer.cut_off or continued >= max_retries:
            break
        continued += 1
        extra = [Message("assistant", "".join(parts)), Message("user", CONTINUE_PROMPT)]
    raw = "".join(parts)
    return LLMResponse(
        output=output_type.from_text(plain_text(raw, output_type), cut_off=answer.cut_off),
        model=provider,
        usage=usage,
        raw_text=raw,
        repair_attempts=empty,
        continuations=continued,
    )
