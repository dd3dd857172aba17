from __future__ import annotations

import pytest


@pytest.mark.django_db
def test_health_reports_ok(client):
    response = client.get("/health/")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok"}
