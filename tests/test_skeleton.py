"""The site starts and its schema is published."""

import pytest


@pytest.mark.django_db
def test_openapi_schema_is_published(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert b"openapi" in response.content
