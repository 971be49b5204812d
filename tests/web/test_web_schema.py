"""Schemathesis against the OpenAPI schema: generated requests for every operation, valid and
invalid, get no server error and answers that match the schema (status, content type, body)."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import positive_data_acceptance

from raten.web import create_app
from raten.web.service import Lists
from raten.wordlists.presets import load_words

pytestmark = pytest.mark.slow  # a few seconds: the schema, then 30 requests per operation and mode

#: Generated requests per operation and mode: enough to find a crash, small enough for CI.
EXAMPLES = 30


@pytest.fixture(scope="module")
def api_schema(en_words, tmp_path_factory):
    lists = Lists.load({"en": en_words, "de": load_words("de")})
    app = create_app(lists=lists, db_path=tmp_path_factory.mktemp("schema") / "raten.sqlite3", daily_secret="s")
    lists.warmup.wait_all()  # a 503 while the frequency tables load would count as a server error
    return schemathesis.openapi.from_asgi("/openapi.json", app)


def operations(api_schema):
    return [result.ok() for result in api_schema.get_all_operations()]


def test_the_schema_covers_every_endpoint(api_schema):
    labels = {op.label for op in operations(api_schema)}
    assert labels == {
        "GET /api/lists",
        "GET /api/letters",
        "POST /api/hints",
        "POST /api/hints/boards",
        "GET /api/openers",
        "POST /api/games",
        "GET /api/games/{game_id}",
        "POST /api/games/{game_id}/guesses",
        "GET /api/games/{game_id}/review",
        "POST /api/review",
        "GET /api/stats",
        "GET /api/health",
        "GET /api/history",
        "GET /api/export",
        "POST /api/export/code",
        "POST /api/import",
    }


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_generated_requests(api_schema, mode):
    """Every check but "schema-valid data is accepted": a schema cannot say that a guess is in
    the word list or that rows agree with each other, so such requests get a 400 by design."""
    tried = []
    for op in operations(api_schema):

        @given(case=op.as_strategy(generation_mode=mode))
        @settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
        def check(case) -> None:
            case.call_and_validate(excluded_checks=[positive_data_acceptance])

        try:
            check()
        except Unsatisfiable:
            assert mode == GenerationMode.NEGATIVE  # nothing to make invalid (no parameters)
            continue
        tried.append(op.label)
    # In negative mode, operations whose only input is a free-form game id have nothing to break.
    assert len(tried) >= (8 if mode == GenerationMode.POSITIVE else 5)
