"""Filter the timeline by kind category and by text, without copying rows."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QModelIndex, QObject, QPersistentModelIndex, QSortFilterProxyModel

from desktop import theme
from desktop.models.timeline_model import CATEGORY_ROLE, SEARCH_ROLE


class TimelineFilter(QSortFilterProxyModel):
    """Shows rows whose category is enabled and whose text contains every typed word."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._categories: set[str] = set(theme.CATEGORIES)
        self._words: list[str] = []

    @property
    def categories(self) -> set[str]:
        return set(self._categories)

    def set_categories(self, categories: set[str]) -> None:
        if categories != self._categories:
            self._refilter(lambda: setattr(self, "_categories", set(categories)))

    def set_category_enabled(self, category: str, enabled: bool) -> None:
        wanted = set(self._categories)
        if enabled:
            wanted.add(category)
        else:
            wanted.discard(category)
        self.set_categories(wanted)

    def set_text(self, text: str) -> None:
        words = text.lower().split()
        if words != self._words:
            self._refilter(lambda: setattr(self, "_words", words))

    def _refilter(self, change: Callable[[], None]) -> None:
        # Qt 6.10 replaced invalidateRowsFilter() with begin/endFilterChange(); support both.
        if hasattr(self, "beginFilterChange"):
            self.beginFilterChange()
            change()
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)
        else:
            change()
            self.invalidateRowsFilter()

    def filterAcceptsRow(
        self, source_row: int, source_parent: QModelIndex | QPersistentModelIndex
    ) -> bool:
        model = self.sourceModel()
        index = model.index(source_row, 0, source_parent)
        if model.data(index, CATEGORY_ROLE) not in self._categories:
            return False
        if not self._words:
            return True
        haystack = model.data(index, SEARCH_ROLE) or ""
        return all(word in haystack for word in self._words)
