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
from deepresearch.testing.vendor_servers.roles import role_answer


class OpenAIServer(VendorServer):
    """``POST /v1/chat/completions``. ``structured=False`` mimics a local server that ignores
    ``response_format`` and answers in chatty text with a fenced JSON block."""

    def __init__(
        self,
        responder: Responder | None = None,
        *,
        answer: Answerer | None = None,
        structured: bool = True,
        max_lifetime_s: float = 120.0,
    ) -> None:
        super().__init__(responder, max_lifetime_s=max_lifetime_s)
        self.answer = answer or role_answer
        self.structured = structured

    @property
    def base_url(self) -> str:
        return self.url + "/v1"

    def default_reply(self, request: RecordedRequest) -> Reply:
        if not request.path.endswith("/chat/completions"):
            return openai_error(404, f"Invalid URL (POST {request.path})", code="unknown_url")
        body = request.json
        prompt = "\n\n".join(str(m.get("content", "")) for m in body.get("messages", []))
        fmt = body.get("response_format") or {}
        native = self.structured and fmt.get("type") == "json_schema"
        name = fmt.get("json_schema", {}).get("name", "") if native else schema_name_in(prompt)
        if not name:  # a model that was never shown a schema just chats
            text = "Sure! I'd be happy to help with that."
        else:
            data = self.answer(name, prompt)
            text = json.dumps(data) if native else chatty(data)
        return Reply(200, openai_completion(text, model=str(body.get("model", ""))))


def openai_completion(
    content: str | None,
    *,
    model: str = "gpt-4.1-mini",
    input_tokens: int = 12,
    output_tokens: int = 7,
) -> JSON:
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
                "finish_reason": "stop",
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
    headers = {"retry-after": str(retry_after)} if retry_after is not None else {}
    body = {"error": {"message": message, "type": type, "param": param, "code": code}}
    return Reply(status, body, headers, delay_s)


def openai_context_window_error() -> Reply:
    return openai_error(
        400,
        "This model's maximum context length is 128000 tokens. However, your messages "
        "resulted in 131072 tokens. Please reduce the length of the messages.",
        param="messages",
        code="context_length_exceeded",
    )
