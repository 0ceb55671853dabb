"""A loopback server speaking OpenAI chat completions (``POST /v1/chat/completions``)."""

from __future__ import annotations

import json

from deepresearch.testing.vendor_servers.base import (
    JSON,
    Answerer,
    RecordedRequest,
    Reply,
    Responder,
    VendorServer,
    chatty,
    schema_name_in,
)
from deepresearch.testing.vendor_servers.roles import (
    as_text,
    cut_to_limit,
    role_answer,
    text_role_in,
)


class OpenAIServer(VendorServer):
    """``POST /v1/chat/completions``, behaving like the servers users run:

    - ``structured=False``: ignores ``response_format`` and answers in chatty text with a
      fenced JSON block (a small model behind llama.cpp);
    - ``json_only=True`` (with ``structured=False``): ignores the schema but always answers
      bare JSON — JSON of its own shape unless the schema is in the prompt (vLLM in JSON mode);
    - ``garbage_every=n``: every n-th chat answer is cut off mid-JSON (truncated output);
    - ``context_window=n``: refuses prompts over n tokens (4 characters a token) with
      OpenAI's ``context_length_exceeded`` error, like an Ollama model with an 8k window.

    A request without a schema whose prompt is a free-text role's (the report writer) gets
    plain Markdown. Every answer longer than the request's ``max_tokens`` (4 characters a
    token) is cut there with ``finish_reason: length``.
    """

    def __init__(
        self,
        responder: Responder | None = None,
        *,
        answer: Answerer | None = None,
        structured: bool = True,
        json_only: bool = False,
        garbage_every: int = 0,
        context_window: int | None = None,
        latency_s: float = 0.0,
        max_lifetime_s: float = 120.0,
    ) -> None:
        super().__init__(responder, latency_s=latency_s, max_lifetime_s=max_lifetime_s)
        self.answer = answer or role_answer
        self.structured = structured
        self.json_only = json_only
        self.garbage_every = garbage_every
        self.context_window = context_window
        self.largest_prompt_tokens = 0
        self._answered = 0

    @property
    def base_url(self) -> str:
        """The base URL to give as ``openai_base_url`` (``.../v1``)."""
        return self.url + "/v1"

    def default_reply(self, request: RecordedRequest) -> Reply:
        """A chat-completions answer built from the request's prompt (404 for other paths).

        Args:
            request: the recorded request.
        """
        if not request.path.endswith("/chat/completions"):
            return openai_error(404, f"Invalid URL (POST {request.path})", code="unknown_url")
        body = request.json
        prompt = "\n\n".join(str(m.get("content", "")) for m in body.get("messages", []))
        tokens = len(prompt) // 4 + 1
        with self._lock:
            self.largest_prompt_tokens = max(self.largest_prompt_tokens, tokens)
            self._answered += 1
            garbage = bool(self.garbage_every) and self._answered % self.garbage_every == 0
        if self.context_window is not None and tokens > self.context_window:
            return openai_context_window_error(self.context_window, tokens)
        fmt = body.get("response_format") or {}
        native = self.structured and fmt.get("type") == "json_schema"
        name = fmt.get("json_schema", {}).get("name", "") if native else schema_name_in(prompt)
        text_role = "" if name else text_role_in(prompt)
        if text_role:  # a free-text request (the report): plain Markdown
            text = as_text(self.answer(text_role, prompt))
        elif not name:  # a model that was never shown a schema just chats (or emits any JSON)
            text = (
                json.dumps({"answer": "Sure! I'd be happy to help with that."})
                if self.json_only
                else "Sure! I'd be happy to help with that."
            )
        else:
            data = self.answer(name, prompt)
            text = json.dumps(data) if native or self.json_only else chatty(data)
        if garbage:
            text = text[: max(1, len(text) // 2)]
        limit = body.get("max_completion_tokens", body.get("max_tokens"))
        text, cut_off = cut_to_limit(text, limit)
        return Reply(
            200,
            openai_completion(
                text,
                model=str(body.get("model", "")),
                finish_reason="length" if cut_off else "stop",
            ),
        )


def openai_completion(
    content: str | None,
    *,
    model: str = "gpt-4.1-mini",
    input_tokens: int = 12,
    output_tokens: int = 7,
    finish_reason: str = "stop",
) -> JSON:
    """A chat-completions answer body.

    Args:
        content: the answer text (None for a refusal-only answer).
        model: the model reported.
        input_tokens: usage reported.
        output_tokens: usage reported.
        finish_reason: ``stop``, or ``length`` for a cut-off answer.
    """
    return {
        "id": "chatcmpl-loopback",
        "object": "chat.completion",
        "created": 1_700_000_000,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": content, "refusal": None},
                "logprobs": None,
                "finish_reason": finish_reason,
            }
        ],
        "usage": {
            "prompt_tokens": input_tokens,
            "completion_tokens": output_tokens,
            "total_tokens": input_tokens + output_tokens,
        },
    }


def openai_error(
    status: int,
    message: str,
    *,
    type: str = "invalid_request_error",
    code: str | None = None,
    param: str | None = None,
    retry_after: float | None = None,
    delay_s: float = 0.0,
) -> Reply:
    """An OpenAI API error answer.

    Args:
        status: the HTTP status.
        message: its message.
        type: the error type.
        code: the error code.
        param: the parameter it concerns.
        retry_after: a Retry-After header, in seconds.
        delay_s: wait this long before answering.
    """
    headers = {"retry-after": str(retry_after)} if retry_after is not None else {}
    body = {"error": {"message": message, "type": type, "param": param, "code": code}}
    return Reply(status, body, headers, delay_s)


def openai_context_window_error(window: int = 128_000, tokens: int = 131_072) -> Reply:
    """OpenAI's answer to a prompt longer than the context window.

    Args:
        window: the context window reported.
        tokens: the prompt size reported.
    """
    return openai_error(
        400,
        f"This model's maximum context length is {window} tokens. However, your messages "
        f"resulted in {tokens} tokens. Please reduce the length of the messages.",
        param="messages",
        code="context_length_exceeded",
    )
