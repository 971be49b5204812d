"""The feedback table in SQL: SQLite and DuckDB files, and a solver written in SQL alone.

``build_database`` writes the guess x answer table in the ``classic`` layout (one row per
pair) or the ``compact`` one (one row per guess, scores packed); ``SqlDatabase`` opens
such a file and runs the packaged ``.sql`` queries: openers, remaining, next.
See docs/sql.md for the layouts and the queries.
"""

from raten.sql.build import FORMAT_VERSION, BuildReport, build_database
from raten.sql.database import SqlDatabase, detect_engine
from raten.sql.queries import ENGINES, QUERIES, SCHEMAS, render, sql_text

__all__ = [
    "ENGINES",
    "FORMAT_VERSION",
    "QUERIES",
    "SCHEMAS",
    "BuildReport",
    "SqlDatabase",
    "build_database",
    "detect_engine",
    "render",
    "sql_text",
]
