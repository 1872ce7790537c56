"""The README is the site's home page. mkdocs reads only docs/, so this hook adds README.md as
index.md, its links into docs/ made relative to the site, and the pictures it shows."""

import re
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent.parent
LINK_INTO_DOCS = re.compile(r"\]\(docs/")
PICTURE = re.compile(r"!\[[^\]]*\]\(([^)#\s]+)\)")


def on_files(files, config):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    files.append(File.generated(config, "index.md", content=LINK_INTO_DOCS.sub("](", readme)))
    for picture in PICTURE.findall(readme):
        files.append(File(picture, str(ROOT), config["site_dir"], config["use_directory_urls"]))
    return files
