"""A small stdio MCP server with a search tool, for the MCP-as-search-provider tests.

python tests/mcp/search_server.py            # a tool returning structured results
python tests/mcp/search_server.py --text     # the same results as plain text blocks
"""

from __future__ import annotations

import sys

from mcp.server.mcpserver import MCPServer

DOCS = [
    {
        "url": "https://docs.example/lighthouses",
        "title": "Lighthouses",
        "content": "A lighthouse is a tower that emits light to guide ships at sea. "
        "The Pharos of Alexandria, built around 280 BC, was one of the tallest structures "
        "of the ancient world.",
    },
    {
        "url": "https://docs.example/fresnel-lens",
        "title": "Fresnel lens",
        "content": "The Fresnel lens, invented by Augustin-Jean Fresnel in 1822, let "
        "lighthouses project their beams far out to sea with far less glass.",
    },
    {
        "url": "https://docs.example/foghorn",
        "title": "Foghorn",
        "content": "A foghorn warns ships of hazards when fog hides a lighthouse's light.",
    },
]

server = MCPServer("docs")
TEXT = "--text" in sys.argv


def _matches(query: str) -> list[dict[str, str]]:
    terms = {w.strip("?.,'s").lower() for w in query.split() if len(w) > 3}
    scored = []
    for doc in DOCS:
        words = (doc["title"] + " " + doc["content"]).lower()
        score = sum(term in words for term in terms)
        if score:
            scored.append((score, doc))
    return [doc for _, doc in sorted(scored, key=lambda p: -p[0])]


if TEXT:

    @server.tool()
    def find(text: str) -> str:
        """Search the documents; plain text out."""
        return "\n\n".join(f"{d['title']}\n{d['content']}" for d in _matches(text)) or "none"

else:

    @server.tool()
    def search_docs(query: str, limit: int = 5) -> list[dict[str, str]]:
        """Search the documents."""
        if query == "explode":
            raise ValueError("the index is broken")
        return _matches(query)[:limit]

    @server.tool()
    def ping() -> str:
        """Not a search tool."""
        return "pong"


if __name__ == "__main__":
    server.run("stdio")
