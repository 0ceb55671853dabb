"""Loopback HTTP servers that speak the OpenAI, Anthropic and Tavily wire formats.

Point the real vendor clients at them (``Config(openai_base_url=server.base_url)``) to test
a pipeline with no network and no keys. Each server answers scripted replies first (in
order, including the vendors' real error bodies), then falls back to a responder. They bind
to 127.0.0.1 on a free port and shut themselves down after ``max_lifetime_s``.

    with OpenAIServer() as server:
        server.enqueue(openai_error(429, "Rate limit reached", code="rate_limit_exceeded",
                                    retry_after=0.01))
        config = Config(llm="openai:gpt-4.1-mini", openai_base_url=server.base_url)
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

JSON = dict[str, Any]


@dataclass
class Reply:
    """One HTTP answer: a JSON body (dict) or raw text (str), after an optional delay."""

    status: int = 200
    body: JSON | str = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


@dataclass
class RecordedRequest:
    path: str
    headers: dict[str, str]
    json: JSON


Responder = Callable[[RecordedRequest], Reply]
# (schema name, all prompt text) -> a JSON object valid for that schema
Answerer = Callable[[str, str], JSON]


class VendorServer:
    """A small threaded HTTP server on 127.0.0.1:<free port>; use it as a context manager."""

    def __init__(self, responder: Responder | None = None, *, max_lifetime_s: float = 120.0):
        self.requests: list[RecordedRequest] = []
        self._script: list[Reply] = []
        self._responder = responder
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._httpd.daemon_threads = True
        self._httpd.owner = self  # type: ignore[attr-defined]
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._stopper = threading.Timer(max_lifetime_s, self.stop)
        self._stopper.daemon = True
        self._stopped = False

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def base_url(self) -> str:
        """What to put in Config.<vendor>_base_url."""
        return self.url

    def enqueue(self, *replies: Reply) -> None:
        with self._lock:
            self._script.extend(replies)

    def start(self) -> Self:
        self._thread.start()
        self._stopper.start()
        return self

    def stop(self) -> None:
        with self._lock:
            if self._stopped:
                return
            self._stopped = True
        self._stopper.cancel()
        self._httpd.shutdown()
        self._httpd.server_close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def reply_to(self, request: RecordedRequest) -> Reply:
        with self._lock:
            self.requests.append(request)
            scripted = self._script.pop(0) if self._script else None
        if scripted is not None:
            return scripted
        if self._responder is not None:
            return self._responder(request)
        return self.default_reply(request)

    def default_reply(self, request: RecordedRequest) -> Reply:
        return Reply(404, {"error": f"no reply scripted for {request.path}"})


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            payload = json.loads(raw) if raw else {}
        except json.JSONDecodeError:
            payload = {"_raw": raw.decode("utf-8", "replace")}
        headers = {k.lower(): v for k, v in self.headers.items()}
        owner: VendorServer = self.server.owner  # type: ignore[attr-defined]
        reply = owner.reply_to(RecordedRequest(self.path, headers, payload))
        if reply.delay_s:
            time.sleep(reply.delay_s)
        body = reply.body if isinstance(reply.body, str) else json.dumps(reply.body)
        data = body.encode("utf-8")
        try:
            self.send_response(reply.status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            for name, value in reply.headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client timed out and left
            self.close_connection = True

    def log_message(self, format: str, *args: Any) -> None:  # keep test output quiet
        return None


# -- OpenAI chat completions -------------------------------------------------------------
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


# -- Anthropic messages ------------------------------------------------------------------
class AnthropicServer(VendorServer):
    """``POST /v1/messages``; answers forced tool use with a ``tool_use`` block unless
    ``structured=False``, in which case it ignores tools and answers in chatty text."""

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

    def default_reply(self, request: RecordedRequest) -> Reply:
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
        if not name:  # a model that was never shown a schema just chats
            return Reply(200, anthropic_message("Happy to help! What would you like to know?"))
        data = self.answer(name, prompt)
        if tool:
            return Reply(200, anthropic_message(tool_input=data, tool_name=tool))
        return Reply(200, anthropic_message(chatty(data)))


def anthropic_message(
    text: str | None = None,
    *,
    tool_input: JSON | None = None,
    tool_name: str = "answer",
    model: str = "claude-sonnet-4-5",
    input_tokens: int = 20,
    output_tokens: int = 9,
) -> JSON:
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
        "stop_reason": "tool_use" if tool_input is not None else "end_turn",
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
    headers = {"retry-after": str(retry_after)} if retry_after is not None else {}
    body = {
        "type": "error",
        "error": {"type": type, "message": message},
        "request_id": "req_loopback",
    }
    return Reply(status, body, headers, delay_s)


def anthropic_context_window_error() -> Reply:
    return anthropic_error(
        400, "invalid_request_error", "prompt is too long: 208310 tokens > 200000 maximum"
    )


# -- Tavily ------------------------------------------------------------------------------
class TavilyServer(VendorServer):
    """``POST /search`` ranks ``documents`` by shared words; ``POST /extract`` returns their
    text (unknown URLs go to ``failed_results``)."""

    def __init__(
        self,
        documents: list[JSON] | None = None,
        responder: Responder | None = None,
        *,
        max_lifetime_s: float = 120.0,
    ) -> None:
        super().__init__(responder, max_lifetime_s=max_lifetime_s)
        self.documents = documents or []

    def default_reply(self, request: RecordedRequest) -> Reply:
        body = request.json
        if request.path == "/search":
            words = set(re.findall(r"\w+", str(body.get("query", "")).lower()))

            def overlap(doc: JSON) -> int:
                text = f"{doc.get('title', '')} {doc.get('content', '')}".lower()
                return len(words & set(re.findall(r"\w+", text)))

            ranked = sorted(self.documents, key=overlap, reverse=True)
            hits = [d for d in ranked if overlap(d) > 0][: int(body.get("max_results") or 5)]
            raw = bool(body.get("include_raw_content"))
            return Reply(200, tavily_search_body(str(body.get("query", "")), hits, raw=raw))
        if request.path == "/extract":
            urls = body.get("urls") or []
            urls = [urls] if isinstance(urls, str) else list(urls)
            known = {d["url"]: d for d in self.documents}
            results = [
                {"url": u, "raw_content": known[u].get("content", ""), "images": []}
                for u in urls
                if u in known
            ]
            failed = [{"url": u, "error": "Failed to fetch url"} for u in urls if u not in known]
            return Reply(200, {"results": results, "failed_results": failed, "response_time": 0.1})
        return tavily_error(404, "Not Found")


def tavily_search_body(query: str, documents: list[JSON], *, raw: bool = False) -> JSON:
    results = [
        {
            "title": d.get("title", ""),
            "url": d["url"],
            "content": str(d.get("content", ""))[:300],
            "score": round(0.9 - 0.05 * i, 3),
            "raw_content": d.get("content", "") if raw else None,
        }
        for i, d in enumerate(documents)
    ]
    return {
        "query": query,
        "answer": None,
        "images": [],
        "results": results,
        "response_time": 0.12,
        "request_id": "tvly-loopback",
    }


def tavily_error(status: int, message: str, *, delay_s: float = 0.0) -> Reply:
    return Reply(status, {"detail": {"error": message}}, delay_s=delay_s)


# -- answers for every role (used by whole-session tests) ---------------------------------
_SOURCE = re.compile(r"^\[(\d+)\] (?:\(ID: ([\w-]+)\) )?(.+)$", re.MULTILINE)
_QUESTION = re.compile(
    r"^(?:Research question|Research Query|Original Research Query): (.+)$", re.M
)


def role_answer(schema: str, prompt: str) -> JSON:
    """A valid, modest answer for each role's output schema (see deepresearch.roles), citing
    the real source ids and [n] numbers found in the prompt, and never asking to go on."""
    found = _QUESTION.search(prompt)
    question = found.group(1).strip() if found else "the question"
    sources = [(int(n), sid, title.strip()) for n, sid, title in _SOURCE.findall(prompt)]
    cited = [s for s in sources if s[1]] or sources
    if schema == "ClarifyOutput":
        return {"need_clarification": False, "verification": f"Researching: {question}"}
    if schema == "BriefOutput":
        return {"research_brief": f"Find well-sourced evidence about: {question}"}
    if schema == "PlanOutput":
        angles = ("history and origins", "effects and consequences")
        queries = [{"query": f"{question} {a}", "priority": i + 1} for i, a in enumerate(angles)]
        return {"research_brief": f"Evidence about {question}", "sub_queries": queries}
    if schema == "SummaryOutput":
        content = prompt.split("Content:", 1)[-1].strip()
        first = re.split(r"(?<=[.!?])\s", content, maxsplit=1)[0][:300]
        return {"executive_summary": content[:400] or "No content.", "key_excerpts": [first]}
    if schema == "ReflectionDecision":
        return {"research_complete": True, "rationale": "The sources cover the sub-query."}
    if schema == "CompressOutput":
        lines = [f"- {title} [{n}]" for n, _, title in cited] or ["- No sources."]
        return {"compressed": "\n".join(lines)}
    if schema == "ThinkOutput":
        return {"gap_analysis": "The sub-queries are covered by the sources.", "gaps": []}
    if schema == "DelegationOutput":
        return {"research_complete": True, "rationale": "Coverage is sufficient."}
    if schema == "CoverageAssessment":
        return {"overall_coverage": "sufficient", "rationale": "Enough diverse sources."}
    if schema == "AnalysisOutput":
        findings = [
            {
                "content": f"{title} bears on {question}.",
                "confidence": "medium",
                "source_ids": [sid],
                "category": "Evidence",
            }
            for _, sid, title in cited[:4]
            if sid
        ]
        return {"findings": findings, "gaps": []}
    if schema == "ReportDraft":
        cites = "".join(f"[{n}]" for n, _, _ in sources[:4])
        body = f"The sources agree on the main points {cites}." if cites else "No sources."
        sections = (
            "Executive summary",
            "Key findings",
            "Conflicting information",
            "Gaps and limitations",
            "Conclusion",
        )
        markdown = f"# {question}\n\n" + "\n\n".join(f"## {h}\n\n{body}" for h in sections)
        return {"markdown": markdown}
    if schema == "RefinementOutput":
        return {"iteration_recommendation": {"should_iterate": False, "rationale": "Done."}}
    if schema == "CondenseOutput":
        return {"text": prompt.split("Text:", 1)[-1].strip()[:400]}
    return {}


# -- helpers -----------------------------------------------------------------------------
_SCHEMA_NAME = re.compile(r'schema named "(\w+)"')


def schema_name_in(prompt: str) -> str:
    """The output schema a prompt-and-parse request asks for (see providers.structured)."""
    match = _SCHEMA_NAME.search(prompt)
    return match.group(1) if match else ""


def chatty(data: JSON) -> str:
    """How small local models answer: a thinking block, chatter, then fenced JSON."""
    return (
        "<think>The user wants JSON. Let me build it {carefully}.</think>\n"
        "Sure! Here is the answer:\n```json\n" + json.dumps(data, indent=2) + "\n```\n"
        "Let me know if you need anything else."
    )
