"""Which text objects of a PDF page a reader cannot see, decided the way the page is painted.

Hidden: render mode 3 (invisible) or 7 (clip only) unless it is the OCR layer over a scan (an
image covering most of the page); off the page; under 2 pt; clipped away; under an opaque shape
drawn later; or painted in the colour of what lies behind it. The page's objects decide where
they can (paper white behind, an opaque rectangle over or under, a rectangular clip); where they
cannot (an image or a curved shape behind or over, a curved clip), the page is rendered at low
resolution twice, with and without those text objects, and the pixels under each decide.
"""

from __future__ import annotations

import ctypes
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

Box = tuple[float, float, float, float]
Matrix = tuple[float, float, float, float, float, float]
Colour = tuple[float, float, float]
_IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
_WHITE: Colour = (255.0, 255.0, 255.0)

_MIN_SIZE_PT = 2.0
_SCAN_COVER = 0.8  # share of the page an image covers for the page to be a scan
# WCAG contrast ratio (1 = the same colour, 21 = black on white) under which text does not
# stand out from what is behind it. 1.2 is #EBEBEB on white or #1F1F1F on black: the faintest
# greys a reader can still make out; readable light grey (#999 on white) is 2.8, and WCAG asks
# 4.5 for body text. Hostile "white" text (#FFF, #FAFAFA, #F5F5F5 on white) is at most 1.09.
_MIN_CONTRAST = 1.2
_RENDER_SCALE = 0.5  # 36 dpi: a 6 pt line is 3 pixels high, enough to sample what is behind
_VISIBLE_SHARE = 0.05  # of the pixels a text changes, the share that must stand out

_INVISIBLE_MODES = (pdfium_c.FPDF_TEXTRENDERMODE_INVISIBLE, pdfium_c.FPDF_TEXTRENDERMODE_CLIP)
_FILL_MODES = frozenset({0, 2, 4, 6})  # fill, fill+stroke, and the same adding to the clip
_STROKE_MODES = frozenset({1, 2, 5, 6})
_SHAPES = frozenset(
    {pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_SHADING}
)


@dataclass(frozen=True)
class _Item:
    """One object of the page in painting order, its box in page space."""

    parent: object | None  # the form object holding it, None for the page
    obj: object
    kind: int
    matrix: Matrix  # from its (form's) space to the page
    box: Box | None


@dataclass(frozen=True)
class _Shape:
    """A path, image or shading: what can lie behind a text or cover it."""

    order: int
    box: Box
    opaque: bool  # painted with full alpha, normal blend, no soft mask
    rect: bool  # exactly its box: an axis-aligned rectangle or unrotated image
    fill: Colour | None  # a filled path's colour; None for an image or a shading
    image: bool


def drop_hidden_text(page: pdfium.PdfPage) -> int:
    """Remove the page's text objects a reader cannot see; how many were removed."""
    hidden = hidden_text(page)
    raw_page = page.raw
    for item in reversed(hidden):
        removed = (
            pdfium_c.FPDFPage_RemoveObject(raw_page, item.obj)
            if item.parent is None
            else pdfium_c.FPDFFormObj_RemoveObject(item.parent, item.obj)
        )
        if removed:
            pdfium_c.FPDFPageObj_Destroy(item.obj)
    return len(hidden)


def hidden_text(page: pdfium.PdfPage) -> list[_Item]:
    left, bottom, right, top = (float(v) for v in page.get_bbox())
    page_box: Box = (left, bottom, right, top)
    items = _walk(page.raw)
    shapes = [_shape(order, item) for order, item in enumerate(items) if item.kind in _SHAPES]
    shapes_in = [shape for shape in shapes if shape is not None]
    page_area = max((right - left) * (top - bottom), 1.0)
    scans = [
        shape
        for shape in shapes_in
        if _area(_intersection(shape.box, page_box)) >= _SCAN_COVER * page_area and shape.image
    ]
    hidden: list[_Item] = []
    unsure: list[_Item] = []
    for order, item in enumerate(items):
        if item.kind != pdfium_c.FPDF_PAGEOBJ_TEXT:
            continue
        verdict = _judge(order, item, page_box, shapes_in, scans)
        if verdict is True:
            hidden.append(item)
        elif verdict is None:
            unsure.append(item)
    if unsure:
        hidden.extend(_judge_rendered(page, unsure))
    return hidden


def _judge(
    order: int, item: _Item, page_box: Box, shapes: Sequence[_Shape], scans: Sequence[_Shape]
) -> bool | None:
    """True: hidden; False: seen; None: only a render can tell."""
    mode = int(pdfium_c.FPDFTextObj_GetTextRenderMode(item.obj))
    box = item.box
    if mode in _INVISIBLE_MODES:
        # A scan's OCR layer: invisible text laid over the page's picture, what a reader sees.
        over_scan = box is not None and any(
            scan.order < order and _overlaps(scan.box, box) for scan in scans
        )
        return not over_scan
    if box is None:
        return False
    if _outside(box, page_box):
        return True
    if _size(item) < _MIN_SIZE_PT:
        return True
    unsure = False
    clip = _clip_rects(item)
    if clip is None:
        unsure = True
    elif any(_outside(box, rect) for rect in clip):
        return True
    left, bottom, right, top = box
    near = [  # inline: this runs for every pair of a text and a shape of the page
        shape
        for shape in shapes
        if shape.box[0] < right
        and shape.box[2] > left
        and shape.box[1] < top
        and shape.box[3] > bottom
    ]
    for shape in near:
        if shape.order > order and shape.opaque:
            if shape.rect and _covers(shape.box, box):
                return True
            if not shape.rect:
                unsure = True  # a curve or a rotated picture over it: its pixels tell
    behind = _behind(order, box, near)
    if behind is None:
        return None
    if not _stands_out(item.obj, mode, behind):
        return True
    return None if unsure else False


def _behind(order: int, box: Box, near: Sequence[_Shape]) -> Colour | None:
    """The colour right behind `box` when the objects say it (None when they cannot); `near`:
    the shapes overlapping it."""
    for shape in reversed(near):
        if shape.order >= order:
            continue
        if shape.fill is not None and shape.opaque and shape.rect and _covers(shape.box, box):
            return shape.fill
        return None  # an image, a shading, a curve or a partial box behind it
    return _WHITE  # paper


def _judge_rendered(page: pdfium.PdfPage, items: Sequence[_Item]) -> list[_Item]:
    """The texts among `items` that change no pixel, or none in a colour that stands out."""
    with_text = _render(page)
    for item in items:
        pdfium_c.FPDFPageObj_SetIsActive(item.obj, False)
    try:
        without = _render(page)
    finally:
        for item in items:
            pdfium_c.FPDFPageObj_SetIsActive(item.obj, True)
    hidden: list[_Item] = []
    for item in items:
        assert item.box is not None
        mode = int(pdfium_c.FPDFTextObj_GetTextRenderMode(item.obj))
        changed = 0
        standing_out = 0
        for offset in _pixels(page.raw, without, item.box):
            before = without.pixel(offset)
            if max(abs(a - b) for a, b in zip(before, with_text.pixel(offset), strict=True)) <= 2:
                continue
            changed += 1
            if _stands_out(item.obj, mode, before):
                standing_out += 1
        if changed == 0 or standing_out < _VISIBLE_SHARE * changed:
            hidden.append(item)
    return hidden


@dataclass(frozen=True)
class _Bitmap:
    data: bytes  # BGR rows, pdfium's default layout
    width: int
    height: int
    stride: int
    channels: int

    def pixel(self, offset: int) -> Colour:
        blue, green, red = self.data[offset], self.data[offset + 1], self.data[offset + 2]
        return (float(red), float(green), float(blue))


def _render(page: pdfium.PdfPage) -> _Bitmap:
    bitmap = page.render(scale=_RENDER_SCALE, draw_annots=False, may_draw_forms=False)
    try:
        return _Bitmap(
            bytes(bitmap.buffer),
            int(bitmap.width),
            int(bitmap.height),
            int(bitmap.stride),
            int(bitmap.n_channels),
        )
    finally:
        bitmap.close()


def _pixels(raw_page: object, bitmap: _Bitmap, box: Box) -> list[int]:
    """Byte offsets of the pixels under `box` (page space; pdfium maps it as it rendered, its
    crop box and /Rotate included)."""
    xs, ys = [], []
    for x, y in ((box[0], box[1]), (box[2], box[3])):
        column, row = ctypes.c_int(), ctypes.c_int()
        pdfium_c.FPDF_PageToDevice(
            raw_page, 0, 0, bitmap.width, bitmap.height, 0, x, y, column, row
        )
        xs.append(column.value)
        ys.append(row.value)
    left, right = max(min(xs), 0), min(max(xs) + 1, bitmap.width)
    top, bottom = max(min(ys), 0), min(max(ys) + 1, bitmap.height)
    return [
        row * bitmap.stride + column * bitmap.channels
        for row in range(top, bottom)
        for column in range(left, right)
    ]


# -- colours -----------------------------------------------------------------------------


def _stands_out(obj: object, mode: int, behind: Colour) -> bool:
    """Whether a text's fill or stroke (as its render mode paints) contrasts with `behind`."""
    painted = []
    if mode in _FILL_MODES:
        painted.append(_colour(pdfium_c.FPDFPageObj_GetFillColor, obj))
    if mode in _STROKE_MODES:
        painted.append(_colour(pdfium_c.FPDFPageObj_GetStrokeColor, obj))
    for found in painted:
        if found is None:
            return True  # a colour pdfium cannot give: count it as seen
        colour, alpha = found
        red, green, blue = (
            alpha * c + (1 - alpha) * b for c, b in zip(colour, behind, strict=True)
        )
        if _contrast((red, green, blue), behind) >= _MIN_CONTRAST:
            return True
    return False


def _colour(getter: Callable[..., int], obj: object) -> tuple[Colour, float] | None:
    """A fill or stroke colour (0-255 channels) and its alpha (0-1); None when pdfium has none."""
    red, green, blue, alpha = (ctypes.c_uint() for _ in range(4))
    if not getter(obj, red, green, blue, alpha):
        return None
    return (float(red.value), float(green.value), float(blue.value)), alpha.value / 255


def _contrast(first: Colour, second: Colour) -> float:
    lighter, darker = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def _luminance(colour: Colour) -> float:
    """WCAG 2 relative luminance of an sRGB colour (0-255 channels)."""
    linear = []
    for channel in colour:
        value = channel / 255
        linear.append(value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4)
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


# -- objects and geometry -------------------------------------------------------------------


def _walk(raw_page: object) -> list[_Item]:
    items: list[_Item] = []
    for index in range(pdfium_c.FPDFPage_CountObjects(raw_page)):
        _visit(None, pdfium_c.FPDFPage_GetObject(raw_page, index), _IDENTITY, items, depth=0)
    return items


def _visit(
    parent: object | None, obj: object, matrix: Matrix, out: list[_Item], depth: int
) -> None:
    kind = int(pdfium_c.FPDFPageObj_GetType(obj))
    out.append(_Item(parent, obj, kind, matrix, _bounds(obj, matrix)))
    if kind != pdfium_c.FPDF_PAGEOBJ_FORM or depth > 16:
        return
    inner = _multiply(_matrix(obj), matrix)  # objects of a form are in the form's space
    for index in range(pdfium_c.FPDFFormObj_CountObjects(obj)):
        _visit(obj, pdfium_c.FPDFFormObj_GetObject(obj, index), inner, out, depth + 1)


def _shape(order: int, item: _Item) -> _Shape | None:
    if item.box is None:
        return None
    opaque = not pdfium_c.FPDFPageObj_HasTransparency(item.obj)
    if item.kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
        _, b, c, _, _, _ = _multiply(_matrix(item.obj), item.matrix)
        return _Shape(order, item.box, opaque, abs(b) < 1e-6 and abs(c) < 1e-6, None, True)
    if item.kind != pdfium_c.FPDF_PAGEOBJ_PATH:
        return _Shape(order, item.box, opaque, False, None, False)
    fill_mode, stroke = ctypes.c_int(), ctypes.c_int()
    if not pdfium_c.FPDFPath_GetDrawMode(item.obj, fill_mode, stroke):
        return _Shape(order, item.box, opaque, False, None, False)
    found = _colour(pdfium_c.FPDFPageObj_GetFillColor, item.obj)
    if fill_mode.value == pdfium_c.FPDF_FILLMODE_NONE or found is None or found[1] == 0:
        return None  # only a stroke (a rule, a border) or an unpainted path: no area of colour
    points = [
        _point(pdfium_c.FPDFPath_GetPathSegment(item.obj, index))
        for index in range(pdfium_c.FPDFPath_CountSegments(item.obj))
    ]
    path_matrix = _multiply(_matrix(item.obj), item.matrix)
    rect = _is_rect(points) and abs(path_matrix[1]) < 1e-6 and abs(path_matrix[2]) < 1e-6
    return _Shape(order, item.box, opaque and found[1] == 1, rect, found[0], False)


def _clip_rects(item: _Item) -> list[Box] | None:
    """The object's clip as page-space rectangles ([] when unclipped); None when curved."""
    clip = pdfium_c.FPDFPageObj_GetClipPath(item.obj)
    if not clip:
        return []
    rects: list[Box] = []
    for path in range(pdfium_c.FPDFClipPath_CountPaths(clip)):
        points = [
            _point(pdfium_c.FPDFClipPath_GetPathSegment(clip, path, index))
            for index in range(pdfium_c.FPDFClipPath_CountPathSegments(clip, path))
        ]
        if not points:
            continue
        if not _is_rect(points) or abs(item.matrix[1]) > 1e-6 or abs(item.matrix[2]) > 1e-6:
            return None
        xs = [point[0] for point in points]
        ys = [point[1] for point in points]
        rects.append(_transform((min(xs), min(ys), max(xs), max(ys)), item.matrix))
    return rects


def _point(segment: object) -> tuple[float, float]:
    x, y = ctypes.c_float(), ctypes.c_float()
    pdfium_c.FPDFPathSegment_GetPoint(segment, x, y)
    return (x.value, y.value)


def _is_rect(points: Sequence[tuple[float, float]]) -> bool:
    """Whether a closed polyline is an axis-aligned rectangle (each step along x or y)."""
    if not 4 <= len(points) <= 5:
        return False
    if len({round(x, 2) for x, _ in points}) != 2 or len({round(y, 2) for _, y in points}) != 2:
        return False
    ring = [*points, points[0]]
    return all(
        abs(x1 - x2) < 1e-3 or abs(y1 - y2) < 1e-3
        for (x1, y1), (x2, y2) in itertools.pairwise(ring)
    )


def _size(item: _Item) -> float:
    """The text's size on the page: font size times the scale of its matrix."""
    size = ctypes.c_float()
    if not pdfium_c.FPDFTextObj_GetFontSize(item.obj, size):
        return _MIN_SIZE_PT
    a, b, c, d, _, _ = _multiply(_matrix(item.obj), item.matrix)
    return float(size.value) * math.sqrt(abs(a * d - b * c))


def _bounds(obj: object, matrix: Matrix) -> Box | None:
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    if not pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom, right, top):
        return None
    return _transform((left.value, bottom.value, right.value, top.value), matrix)


def _transform(box: Box, matrix: Matrix) -> Box:
    if matrix == _IDENTITY:
        return box
    a, b, c, d, e, f = matrix
    xs = [a * x + c * y + e for x in (box[0], box[2]) for y in (box[1], box[3])]
    ys = [b * x + d * y + f for x in (box[0], box[2]) for y in (box[1], box[3])]
    return (min(xs), min(ys), max(xs), max(ys))


def _matrix(obj: object) -> Matrix:
    found = pdfium_c.FS_MATRIX()
    if not pdfium_c.FPDFPageObj_GetMatrix(obj, found):
        return _IDENTITY
    return (found.a, found.b, found.c, found.d, found.e, found.f)


def _multiply(first: Matrix, then: Matrix) -> Matrix:
    """The matrix applying `first`, then `then` (PDF row-vector convention)."""
    a1, b1, c1, d1, e1, f1 = first
    a2, b2, c2, d2, e2, f2 = then
    return (
        a1 * a2 + b1 * c2,
        a1 * b2 + b1 * d2,
        c1 * a2 + d1 * c2,
        c1 * b2 + d1 * d2,
        e1 * a2 + f1 * c2 + e2,
        e1 * b2 + f1 * d2 + f2,
    )


def _intersection(first: Box, second: Box) -> Box:
    return (
        max(first[0], second[0]),
        max(first[1], second[1]),
        min(first[2], second[2]),
        min(first[3], second[3]),
    )


def _area(box: Box) -> float:
    return max(box[2] - box[0], 0.0) * max(box[3] - box[1], 0.0)


def _outside(box: Box, region: Box) -> bool:
    """Whether `box` lies wholly outside `region` (an empty box inside it does not)."""
    return box[2] <= region[0] or box[0] >= region[2] or box[3] <= region[1] or box[1] >= region[3]


def _overlaps(first: Box, second: Box) -> bool:
    return _area(_intersection(first, second)) > 0


def _covers(outer: Box, inner: Box) -> bool:
    return (
        outer[0] <= inner[0] + 0.5
        and outer[1] <= inner[1] + 0.5
        and outer[2] >= inner[2] - 0.5
        and outer[3] >= inner[3] - 0.5
    )
