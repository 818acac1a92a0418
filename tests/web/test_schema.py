"""Schemathesis against the app's own OpenAPI schema: generated requests (valid and invalid)
must never get a server error, and every answer must match the documented schema."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from bidlab.web import create_app

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx2.*")

# Bounded by examples, not by the clock: ~25 generated requests per operation and phase.
EXAMPLES = 25

# Built at import: schemathesis parametrizes one test per API operation at collection time.
_tmp = tempfile.TemporaryDirectory(prefix="bidlab-web-schema-")
schema = schemathesis.openapi.from_asgi(
    "/openapi.json", create_app(results_dir=Path(_tmp.name) / "results", model_dirs=[], max_boards=20))


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_no_server_errors_and_answers_fit_the_schema(case):
    case.call_and_validate(checks=[not_a_server_error, status_code_conformance, content_type_conformance,
                                   response_schema_conformance])
