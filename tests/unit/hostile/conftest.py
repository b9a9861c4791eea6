"""The API's key and client fixtures, for the hostile uploads."""

from tests.unit.api.conftest import api, api_key, other_api, other_api_key  # noqa: F401
