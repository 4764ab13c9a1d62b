"""The corpus: what the folder holds, what the index holds of it, and reindexing.

The index lives in this desk's own store (`desk_store`), in team mode too: documents are on
the machine that reads them. `corpus` names a folder other than the default one (the setting
`corpus.folder`, else the home's `corpus/`), as `run --corpus` does.
"""

from __future__ import annotations

from pathlib import Path

from agent_core.contract.documents import CorpusStatusView, DocumentView
from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.corpus import index
from agent_core.corpus.index import Progress
from agent_core.facade.base import WorkspaceBase
from agent_core.home.config import existing_folder
from agent_core.storage.tables import corpus as corpus_table


class CorpusCommands(WorkspaceBase):
    def corpus_root(self, corpus: str | Path | None = None) -> Path:
        """The folder `run --corpus` would read, by default the setting `corpus.folder` or the
        home's `corpus/` (`not_found` when it does not exist)."""
        root = Path(corpus).expanduser().resolve() if corpus else self.default_corpus()
        return existing_folder(root, "corpus folder")

    def corpus_status(self, corpus: str | Path | None = None) -> CorpusStatusView:
        return index.corpus_status(self.desk_store, self.corpus_root(corpus))

    def corpus_documents(
        self, corpus: str | Path | None = None, *, failed_only: bool = False
    ) -> list[DocumentView]:
        return index.corpus_documents(self.desk_store, self.corpus_root(corpus), failed_only)

    def reindex_corpus(
        self, corpus: str | Path | None = None, progress: Progress | None = None
    ) -> CorpusStatusView:
        """Reindex what changed (size, mtime, hash); returns when done, with the status."""
        root = self.corpus_root(corpus)
        return index.reindex(self.desk_store, root, self.settings(), progress)

    def document_page_text(
        self, source_id: str, page: int | None, corpus: str | Path | None = None
    ) -> str:
        """The indexed text of one page of a paged document (page None: an unpaged one's),
        as a citation's viewer shows it; `not_found` when the index has none."""
        root = self.corpus_root(corpus)
        number = page or 0
        with self.desk_store.read() as conn:
            texts = corpus_table.page_texts(conn, str(root), source_id, number, number)
        if not texts:
            raise BriefDeskError(
                ErrorCode.NOT_FOUND, f"The index has no text for {source_id} page {number}."
            )
        return texts[0][1]
