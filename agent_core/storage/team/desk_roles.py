"""A desk's own PostgreSQL role: what it may do with BriefDesk's tables (team mode).

The team's administrator creates one LOGIN role per desk (migrations never create roles) and
runs `briefdesk-cli grants desk-role ROLE` once, logged in as the database's owner. The role
then reads everything, runs and proposes, and decides only what its grants allow: the
triggers of migration 0007 check each decision, remembered rule and run change it makes. It
only reads `grants` (only the owner changes them) and only appends to the audit log. It
appends to `desk_bindings` too: the triggers of migration 0008 bind a desk to the role that
first drives it (stamping `current_user`), and from then on refuse that role's writes to
other desks' runs, proposals and leases.

Privileges are set exactly (REVOKE, then GRANT) table by table from the schema, so a table
added by a later migration is covered too: after each upgrade the migrating owner gives every
role that already holds a desk's privileges the new set (`reapply`).
"""

from __future__ import annotations

from sqlalchemy import Connection, text

from agent_core.contract.errors import BriefDeskError, ErrorCode
from agent_core.contract.views import DeskRoleView
from agent_core.storage.schema import metadata

READ_ONLY = ("alembic_version", "grants", "settings")
APPEND_ONLY = ("audit", "desk_bindings")  # desk_bindings: a role binds a desk to itself
_MARKER_TABLE = "runs"  # a role with INSERT on runs holds a desk's privileges


def _quote(conn: Connection, name: str) -> str:
    return conn.dialect.identifier_preparer.quote(name)


def grant_desk_role(conn: Connection, role: str) -> DeskRoleView:
    """Give `role` exactly a desk's privileges on this database (idempotent)."""
    if conn.dialect.name != "postgresql":
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            "Desk roles are PostgreSQL roles: give --db postgresql://OWNER@HOST/DB (the team "
            "database, logged in as its owner).",
        )
    found = conn.execute(text("SELECT 1 FROM pg_roles WHERE rolname = :r"), {"r": role}).first()
    if found is None:
        raise BriefDeskError(
            ErrorCode.NOT_FOUND,
            f"There is no database role {role!r}. An administrator creates it first "
            f"(CREATE ROLE {role} LOGIN PASSWORD '...'; see the README's team set-up).",
        )
    owns = conn.execute(
        text(
            "SELECT pg_has_role(:r, c.relowner, 'MEMBER') FROM pg_class c "
            "WHERE c.oid = to_regclass(:t)"
        ),
        {"r": role, "t": _MARKER_TABLE},
    ).scalar()
    if owns:  # REVOKE ALL would take the owner's own rights away, and the guards skip it
        raise BriefDeskError(
            ErrorCode.INVALID_ARGUMENTS,
            f"The role {role!r} owns BriefDesk's tables (or is a superuser): it administers "
            "the team and needs no desk privileges. Give each desk its own role.",
        )
    who = _quote(conn, role)
    database = str(conn.exec_driver_sql("SELECT current_database()").scalar_one())
    schema = str(conn.exec_driver_sql("SELECT current_schema()").scalar_one())
    present = {
        str(name)
        for (name,) in conn.execute(
            text("SELECT tablename FROM pg_tables WHERE schemaname = :s"), {"s": schema}
        )
    }
    ours = sorted(present & ({*metadata.tables} | {"alembic_version"}))
    statements = [
        f"GRANT CONNECT ON DATABASE {_quote(conn, database)} TO {who}",
        f"GRANT USAGE ON SCHEMA {_quote(conn, schema)} TO {who}",
    ]
    view = DeskRoleView(role=role, database=database, read_write=[], append_only=[], read_only=[])
    for table in ours:
        name = f"{_quote(conn, schema)}.{_quote(conn, table)}"
        statements.append(f"REVOKE ALL ON {name} FROM {who}")
        if table in READ_ONLY:
            statements.append(f"GRANT SELECT ON {name} TO {who}")
            view["read_only"].append(table)
        elif table in APPEND_ONLY:
            statements.append(f"GRANT SELECT, INSERT ON {name} TO {who}")
            view["append_only"].append(table)
        else:
            statements.append(f"GRANT SELECT, INSERT, UPDATE, DELETE ON {name} TO {who}")
            view["read_write"].append(table)
    for table in ours:  # the sequences behind autoincrement keys (events.seq, audit.id, ...)
        column = metadata.tables[table].autoincrement_column if table in metadata.tables else None
        if column is None:
            continue
        sequence = conn.execute(
            text("SELECT pg_get_serial_sequence(:t, :c)"),
            {"t": f"{_quote(conn, schema)}.{_quote(conn, table)}", "c": column.name},
        ).scalar()
        if sequence:
            statements.append(f"GRANT USAGE, SELECT ON SEQUENCE {sequence} TO {who}")
    for statement in statements:
        conn.exec_driver_sql(statement)
    return view


def desk_roles(conn: Connection) -> list[str]:
    """Roles other than the owner that hold a desk's privileges (INSERT on `runs`)."""
    rows = conn.execute(
        text(
            "SELECT DISTINCT r.rolname FROM pg_class c "
            "CROSS JOIN LATERAL aclexplode(c.relacl) a JOIN pg_roles r ON r.oid = a.grantee "
            "WHERE c.oid = to_regclass(:t) AND a.privilege_type = 'INSERT' "
            "AND a.grantee <> c.relowner ORDER BY r.rolname"
        ),
        {"t": _MARKER_TABLE},
    )
    return [str(name) for (name,) in rows]


def reapply(conn: Connection) -> list[str]:
    """After an upgrade: every desk role gets the privileges of the new schema."""
    roles = desk_roles(conn)
    for role in roles:
        grant_desk_role(conn, role)
    return roles
