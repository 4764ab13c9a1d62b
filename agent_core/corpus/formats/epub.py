"""EPUB: the chapters in spine order, each through html.py (one unpaged section).

container.xml names the package (OPF), whose spine orders the XHTML chapters; the package files
themselves (OPF, NCX, the EPUB 3 navigation document) are not text of the book. A book whose
META-INF/encryption.xml encrypts content with anything but font obfuscation is under DRM.
A chapter's linked stylesheets (and their @imports) are read from the package, never from
anywhere else, so its CSS hides text as a reading system would.
"""

from __future__ import annotations

import posixpath
import zipfile
from dataclasses import replace
from pathlib import Path
from urllib.parse import unquote, urlsplit

from lxml import etree

from agent_core.contract.documents import DocumentError, DocumentErrorCode, ExtractedDocument
from agent_core.corpus.formats import ExtractLimits
from agent_core.corpus.formats.common import (
    join_blocks,
    open_zip,
    read_member,
    single_section,
)
from agent_core.corpus.formats.css import Loader
from agent_core.corpus.formats.html import html_to_text
from agent_core.corpus.formats.package_xml import dc_title, parse_xml

_KIND = "EPUB"
_CONTAINER = "{urn:oasis:names:tc:opendocument:xmlns:container}"
_OPF = "{http://www.idpf.org/2007/opf}"
_XMLENC = "{http://www.w3.org/2001/04/xmlenc#}"
# Font obfuscation (IDPF, Adobe) scrambles embedded fonts only: the text stays readable.
_FONT_OBFUSCATION = {"http://www.idpf.org/2008/embedding", "http://ns.adobe.com/pdf/enc#RC"}
_CHAPTER_TYPES = {"application/xhtml+xml", "text/html", "application/x-dtbook+xml"}


def extract(path: Path, limits: ExtractLimits) -> ExtractedDocument:
    with open_zip(path, limits.max_unpacked_bytes, _KIND) as archive:
        names = set(archive.namelist())
        if "META-INF/encryption.xml" in names:
            _refuse_drm(parse_xml(read_member(archive, "META-INF/encryption.xml", _KIND), _KIND))
        container = parse_xml(read_member(archive, "META-INF/container.xml", _KIND), _KIND)
        rootfile = container.find(f".//{_CONTAINER}rootfile")
        opf_path = "" if rootfile is None else unquote(rootfile.get("full-path", ""))
        if opf_path not in names:
            raise DocumentError(DocumentErrorCode.UNREADABLE, "The EPUB names no package file.")
        package = parse_xml(read_member(archive, opf_path, _KIND), _KIND)
        texts: list[str] = []
        hidden = 0
        for chapter in _spine(package, posixpath.dirname(opf_path)):
            if chapter in names:
                page = html_to_text(
                    read_member(archive, chapter, _KIND), _package_loader(archive, chapter)
                )
                texts.append(page.text)
                hidden += page.hidden_removed
    document = single_section(dc_title(package), join_blocks(texts), limits.max_chars)
    return replace(document, hidden_removed=hidden)


_MAX_STYLESHEET_BYTES = 4 * 1024 * 1024


def _package_loader(archive: zipfile.ZipFile, chapter: str) -> Loader:
    """Reads a stylesheet the chapter (or a stylesheet it loaded) names, inside the package."""
    names = set(archive.namelist())

    def load(url: str, base: str = chapter) -> str | None:
        parts = urlsplit(url)
        if parts.scheme or parts.netloc or not parts.path:
            return None  # another place than this package: never fetched
        path = posixpath.normpath(posixpath.join(posixpath.dirname(base), unquote(parts.path)))
        if path not in names or archive.getinfo(path).file_size > _MAX_STYLESHEET_BYTES:
            return None
        return read_member(archive, path, _KIND).decode("utf-8", errors="replace")

    return load


def _refuse_drm(encryption: etree._Element) -> None:
    for method in encryption.iter(f"{_XMLENC}EncryptionMethod"):
        if method.get("Algorithm", "") not in _FONT_OBFUSCATION:
            raise DocumentError(
                DocumentErrorCode.ENCRYPTED, "The book's content is encrypted (DRM)."
            )


def _spine(package: etree._Element, base: str) -> list[str]:
    """The chapters' paths inside the zip, in reading order, package files left out."""
    items: dict[str, tuple[str, str, str]] = {}
    for item in package.iter(f"{_OPF}item"):
        items[item.get("id", "")] = (
            item.get("href", ""),
            item.get("media-type", ""),
            item.get("properties", ""),
        )
    chapters: list[str] = []
    for reference in package.iter(f"{_OPF}itemref"):
        href, media_type, properties = items.get(reference.get("idref", ""), ("", "", ""))
        if not href or media_type not in _CHAPTER_TYPES or "nav" in properties.split():
            continue
        path = posixpath.normpath(posixpath.join(base, unquote(href.split("#")[0])))
        if path not in chapters:
            chapters.append(path)
    return chapters
