"""A loopback server speaking Anthropic messages (``POST /v1/messages``)."""

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


class AnthropicServer(VendorServer):
    """``POST /v1/messages``; answers forced tool use with a ``tool_use`` block unless
    ``structured=False``, in which case it ignores tools and answers in chatty text. A
    free-text role's request (the report writer) gets plain Markdown; a text answer longer
    than ``max_tokens`` (4 characters a token) is cut with ``stop_reason: max_tokens``."""

    def __init__(
        self,
        responder: Responder | None = None,
        *,
        answer: Answerer | None = None,
        structured: bool = True,
        latency_s: float = 0.0,
        max_lifetime_s: float = 120.0,
    ) -> None:
        super().__init__(responder, latency_s=latency_s, max_lifetime_s=max_lifetime_s)
        self.answer = answer or role_answer
        self.structured = structured

    def default_reply(self, request: RecordedRequest) -> Reply:
        """A Messages API answer built from the request's prompt (404 for other paths).

        Args:
            request: the recorded request.
        """
        if not request.path.endswith("/v1/messages"):
            return anthropic_error(404, "not_found_error", f"Not found: {request.path}")
        body = request.json
        texts = [str(body.get("system", ""))]
        for m in body.get("messages", []):
            content = m.get("content", "")
            texts.append(content if isinstance(content, str) else json.dumps(content))
        prompt = "\n\n".join(texts)
        tool = (body.get("tool_choice") or {}).get("name") if self.structured else None
        name = tool or schema_name_in(prompt)
        text_role = "" if name else text_role_in(prompt)
        if text_role:  # a free-text request (the report): plain Markdown
            text = as_text(self.answer(text_role, prompt))
        elif not name:  # a model that was never shown a schema just chats
            text = "Happy to help! What would you like to know?"
        else:
            data = self.answer(name, prompt)
            if tool:
                return Reply(200, anthropic_message(tool_input=data, tool_name=tool))
            text = chatty(data)
        text, cut_off = cut_to_limit(text, body.get("max_tokens"))
        stop = "max_tokens" if cut_off else "end_turn"
        return Reply(200, anthropic_message(text, stop_reason=stop))


def anthropic_message(
    text: str | None = None,
    *,
    tool_input: JSON | None = None,
    tool_name: str = "answer",
    model: str = "claude-sonnet-4-5",
    input_tokens: int = 20,
    output_tokens: int = 9,
    stop_reason: str | None = None,
) -> JSON:
    """A Messages API answer body: text, or a tool call with ``tool_input``.

    Args:
        text: the answer text.
        tool_input: the tool call's input, for structured output.
        tool_name: the tool's name.
        model: the model reported.
        input_tokens: usage reported.
        output_tokens: usage reported.
        stop_reason: why it stopped (default from the content).
    """
    content: list[JSON] = []
    if text is not None:
        content.append({"type": "text", "text": text})
    if tool_input is not None:
        content.append(
            {"type": "tool_use", "id": "toolu_loopback", "name": tool_name, "input": tool_input}
        )
    return {
        "id": "msg_loopback",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop_reason or ("tool_use" if tool_input is not None else "end_turn"),
        "stop_sequence": None,
        "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
    }


def anthropic_error(
    status: int,
    type: str,
    message: str,
    *,
    retry_after: float | None = None,
    delay_s: float = 0.0,
) -> Reply:
    """A Messages API error answer.

    Args:
        status: the HTTP status.
        type: the error type.
        message: its message.
        retry_after: a Retry-After header, in seconds.
        delay_s: wait this long before answering.
    """
    headers = {"retry-after": str(retry_after)} if retry_after is not None else {}
    body = {
        "type": "error",
        "error": {"type": type, "message": message},
        "request_id": "req_loopback",
    }
    return Reply(status, body, headers, delay_s)


def anthropic_context_window_error() -> Reply:
    """Anthropic's answer to a prompt longer than the context window."""
    return anthropic_error(
        400, "invalid_request_error", "prompt is too long: 208310 tokens > 200000 maximum"
    )
