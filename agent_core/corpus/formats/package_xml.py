"""XML inside a document package (docx, odt, epub): parsed safely, and its Dublin Core title.

Apart from common.py so that only the formats that parse XML load lxml in the worker.
"""

from __future__ import annotations

from lxml import etree

from agent_core.contract.documents import DocumentError, DocumentErrorCode


def parse_xml(data: bytes, kind: str) -> etree._Element:
    """XML of a package, parsed without entities, network or huge trees (a hostile file)."""
    parser = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
    try:
        return etree.fromstring(data, parser)
    except etree.LxmlError as error:
        raise DocumentError(
            DocumentErrorCode.UNREADABLE, f"The {kind} package holds broken XML ({error})."
        ) from error


def dc_title(root: etree._Element) -> str:
    """The first Dublin Core title in a metadata tree, spaces collapsed ("" when none)."""
    for element in root.iter("{http://purl.org/dc/elements/1.1/}title"):
        text = " ".join("".join(element.itertext()).split())
        if text:
            return text
    return ""
