"""pyproject.toml, read once: the distribution's name and version and the
core metadata (METADATA in a wheel, PKG-INFO in an sdist)."""

import os
import re
import tomllib

from . import BuildError

# The source tree: build_backend/isojson_build/ is two levels below it, in the
# repository and in an unpacked sdist alike.
SOURCE_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Metadata 2.4 (PEP 639) is the first with License-Expression and License-File.
METADATA_VERSION = "2.4"


class Project:
    def __init__(self, root=SOURCE_ROOT):
        self.root = root
        path = os.path.join(root, "pyproject.toml")
        try:
            with open(path, "rb") as f:
                self.data = tomllib.load(f)
        except OSError as e:
            raise BuildError(f"cannot read {path}: {e.strerror}") from None
        p = self.data.get("project", {})
        self.name = p["name"]
        self.version = p["version"]
        if not re.fullmatch(r"\d+(\.\d+)*([ab]|rc)?\d*(\.post\d+)?(\.dev\d+)?", self.version):
            raise BuildError(f"pyproject.toml: version {self.version!r} is not a plain PEP 440 version")
        self.project = p

    @property
    def dist_name(self):
        """The name as it appears in file names (PEP 427: runs of -_. become _)."""
        return re.sub(r"[-_.]+", "_", self.name).lower()

    @property
    def license_files(self):
        """The licence files (paths relative to the source root), which must exist."""
        files = self.project.get("license-files", [])
        for f in files:
            if not os.path.isfile(os.path.join(self.root, f)):
                raise BuildError(f"pyproject.toml names the licence file {f}, which does not exist")
        return files

    def metadata(self):
        """The core metadata file's text (METADATA and PKG-INFO)."""
        p = self.project
        lines = [
            f"Metadata-Version: {METADATA_VERSION}",
            f"Name: {self.name}",
            f"Version: {self.version}",
        ]
        if "description" in p:
            lines.append(f"Summary: {p['description']}")
        if "keywords" in p:
            lines.append(f"Keywords: {','.join(p['keywords'])}")
        if "license" in p:
            lines.append(f"License-Expression: {p['license']}")
        for f in self.license_files:
            lines.append(f"License-File: {f}")
        for c in p.get("classifiers", []):
            lines.append(f"Classifier: {c}")
        if "requires-python" in p:
            lines.append(f"Requires-Python: {p['requires-python']}")
        for dep in p.get("dependencies", []):
            lines.append(f"Requires-Dist: {dep}")
        body = ""
        readme = p.get("readme")
        if readme:
            path = os.path.join(self.root, readme)
            with open(path, encoding="utf-8") as f:
                body = f.read()
            kind = "text/markdown" if readme.endswith(".md") else "text/plain"
            lines.append(f"Description-Content-Type: {kind}; charset=UTF-8")
        text = "\n".join(lines) + "\n"
        if body:
            text += "\n" + body
        return text
