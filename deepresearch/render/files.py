"""Links to the local files a report cites, through the Jupyter server's files route.

A browser does not open ``file://`` links from an http page, so a cited document of your
own is linked only when the notebook's Jupyter server can serve it: the link is relative
to the notebook's folder, and JupyterLab resolves it through the server's ``/files/``
route (and opens the file in a tab). A file outside the server's root gets no link; the
renderer shows the cited passage instead.

The server root is found from what Jupyter tells its kernels: ``JPY_SESSION_NAME`` (the
notebook's path) and the server's runtime file (``jpserver-*.json``, its ``root_dir``).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import quote, unquote, urlsplit


@dataclass(frozen=True)
class FilesRoute:
    """A Jupyter server's root folder and the folder of the notebook showing the report."""

    root: Path
    notebook_dir: Path

    def href(self, location: str) -> str | None:
        """A relative link to ``location`` (a local path or ``file://`` URL) when the file
        lies under the server root; None otherwise."""
        path = local_path(location)
        if path is None:
            return None
        try:
            path = path.resolve()
            if not path.is_relative_to(self.root.resolve()):
                return None
            relative = os.path.relpath(path, self.notebook_dir.resolve())
        except (OSError, ValueError):
            return None
        # Every character but "/" %-encoded: "a:b" cannot become a scheme, "(" cannot end
        # a Markdown link, and a space cannot split it.
        return quote(Path(relative).as_posix(), safe="/")


def local_path(location: str) -> Path | None:
    """The absolute path a source's location names, if it is a local file."""
    location = location.strip()
    parts = urlsplit(location)
    if parts.scheme.lower() == "file":
        location = unquote(parts.path)
    elif len(parts.scheme) > 1:  # http:, mailto:, data:, ... ("C:" is a drive letter)
        return None
    path = Path(location).expanduser()
    return path if path.is_absolute() else None


def jupyter_files_route() -> FilesRoute | None:
    """Where this kernel's Jupyter server serves files from; None outside such a kernel."""
    notebook = os.environ.get("JPY_SESSION_NAME", "")
    if not notebook:
        return None
    if not os.path.isabs(notebook):
        # An API path relative to the server root; the kernel started in the notebook's folder.
        here = Path.cwd()
        root = here
        for part in reversed(PurePosixPath(notebook).parent.parts):
            if root.name != part:
                return None
            root = root.parent
        return FilesRoute(root=root, notebook_dir=here)
    path = Path(notebook)
    served = _server_root(path)
    return FilesRoute(root=served, notebook_dir=path.parent) if served is not None else None


def _server_root(notebook: Path) -> Path | None:
    """The root folder of a running Jupyter server that holds ``notebook`` (the deepest one
    when servers nest), read from the servers' runtime files."""
    try:
        from jupyter_core.paths import jupyter_runtime_dir
    except ImportError:
        return None
    roots: list[Path] = []
    for info in Path(jupyter_runtime_dir()).glob("jpserver-*.json"):
        try:
            root = Path(json.loads(info.read_text(encoding="utf-8"))["root_dir"]).resolve()
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if notebook.resolve().is_relative_to(root):
            roots.append(root)
    return max(roots, key=lambda r: len(r.parts)) if roots else None
