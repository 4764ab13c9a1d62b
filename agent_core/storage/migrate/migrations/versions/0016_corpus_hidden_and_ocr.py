"""What cannot be seen is not read, and scans are read: `corpus list` counts both.

- `corpus_docs` gains `hidden_removed` (runs of hidden text the extractor left out of the
  document) and `ocr_pages` (its pages read by OCR), both 0 by default.
- Every document indexed before is read again at the next reindex: its stat is forgotten
  (`mtime_ns` -1, `sha256` empty), so it is pending until then. The extractors of this
  revision leave out hidden text the earlier ones indexed and read scans they refused; an
  index that kept the old text would keep the hidden instructions. The old text stays
  searchable until the document is read again (runs reindex when they start); a file deleted
  meanwhile is dropped by that reindex like any other.

Revision ID: 0016
Revises: 0015
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

_NEW_COLUMNS = ("hidden_removed", "ocr_pages")


def upgrade() -> None:
    for name in _NEW_COLUMNS:
        op.add_column(
            "corpus_docs",
            sa.Column(name, sa.Integer(), nullable=False, server_default=sa.text("0")),
        )
    op.execute("UPDATE corpus_docs SET mtime_ns = -1, sha256 = ''")


def downgrade() -> None:
    with op.batch_alter_table("corpus_docs") as batch:
        for name in reversed(_NEW_COLUMNS):
            batch.drop_column(name)
