"""Access control: with tokens every request needs one and a job is its token's alone;
binding beyond loopback without a token is refused."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from service_support import TUTORIAL, served, wait_job

from cp_sudoku.cli import main as cli
from cp_sudoku.service.app import Settings, create_app
from cp_sudoku.service.store import Store
from cp_sudoku.service.tokens import is_loopback, owner_of

ALICE = secrets.token_urlsafe(24)
BOB = secrets.token_urlsafe(24)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("access") / "jobs.sqlite3"
    settings = Settings(db=db, workers=1, tokens=frozenset({ALICE, BOB}))
    with TestClient(create_app(settings), follow_redirects=False) as test_client:
        yield test_client


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/"),
        ("GET", "/app.js"),
        ("GET", "/docs"),
        ("GET", "/openapi.json"),
        ("GET", "/healthz"),
        ("GET", "/v1/kinds"),
        ("GET", "/v1/jobs"),
        ("POST", "/v1/check"),
        ("POST", "/v1/jobs"),
        ("DELETE", "/v1/jobs/anything"),
    ],
)
def test_every_request_needs_the_token(client: TestClient, method: str, path: str) -> None:
    for headers in ({}, bearer("x" * 32), {"Authorization": f"Basic {ALICE}"}):
        answer = client.request(method, path, headers=headers, json={"puzzle": TUTORIAL})
        assert answer.status_code == 401, (path, headers)
        assert answer.headers["www-authenticate"] == "Bearer"
        assert "Authorization: Bearer TOKEN" in answer.json()["error"]
    assert client.get("/healthz", headers=bearer(ALICE)).json()["status"] == "ok"


def test_a_job_is_visible_only_to_its_token(client: TestClient) -> None:
    made = client.post("/v1/jobs", content=TUTORIAL + "\n", headers=bearer(ALICE))
    assert made.status_code == 202, made.text
    job_id = made.json()["id"]
    client.headers.update(bearer(ALICE))
    try:
        assert wait_job(client, job_id)["state"] == "done"
        assert client.get(f"/v1/jobs/{job_id}/results").text.count("\n") == 1
        assert job_id in [job["id"] for job in client.get("/v1/jobs").json()["jobs"]]
    finally:
        del client.headers["Authorization"]
    for method, path in (
        ("GET", f"/v1/jobs/{job_id}"),
        ("GET", f"/v1/jobs/{job_id}/results"),
        ("DELETE", f"/v1/jobs/{job_id}"),
    ):
        answer = client.request(method, path, headers=bearer(BOB))
        assert answer.status_code == 404, path
        assert answer.json()["error"] == "no such job"  # the same as for no job at all
    assert client.get("/v1/jobs", headers=bearer(BOB)).json()["jobs"] == []
    store: Store = client.app.state.store  # type: ignore[attr-defined]
    assert store.get(job_id) is not None
    assert store.get(job_id, owner_of(ALICE)) is not None  # kept under the token's hash


def test_a_certificates_files_are_visible_only_to_its_token(client: TestClient) -> None:
    done = client.post("/v1/prove", json={"puzzle": "......122..4.4.."}, headers=bearer(ALICE))
    if done.status_code == 501:
        pytest.skip("the prover is not installed here")
    link = done.json()["cnf_url"]
    assert client.get(link, headers=bearer(ALICE)).status_code == 200
    assert client.get(link, headers=bearer(BOB)).status_code == 404


def test_a_browser_opens_the_page_once_with_the_token(client: TestClient) -> None:
    wrong = client.get("/", params={"token": "y" * 32})
    assert wrong.status_code == 401
    door = client.get("/docs", params={"token": ALICE, "x": "1"})
    assert door.status_code == 303
    assert door.headers["location"] == "/docs?x=1"  # the token leaves the address
    cookie = door.headers["set-cookie"]
    assert "HttpOnly" in cookie
    assert "SameSite=Strict" in cookie
    try:
        client.cookies.set("cp_sudoku_token", ALICE)
        page = client.get("/")
        assert page.status_code == 200
        assert '<table id="entry"' in page.text
        client.cookies.set("cp_sudoku_token", "z" * 32)
        assert client.get("/").status_code == 401
    finally:
        client.cookies.clear()


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.168.1.10", "example.org"])
def test_binding_beyond_loopback_without_a_token_is_refused(host: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["serve", "--host", host, "--db", str(tmp_path / "db")], env={"CP_SUDOKU_TOKEN": ""}
    )
    assert result.exit_code == 2
    said = result.output.strip().splitlines()
    assert len(said) == 1, result.output
    assert "--token TOKEN" in said[0]
    assert "CP_SUDOKU_TOKEN=TOKEN" in said[0]
    assert "secrets.token_urlsafe" in said[0]
    assert not (tmp_path / "db").exists()  # nothing started


def test_a_short_token_is_refused(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["serve", "--token", "secret", "--db", str(tmp_path / "db")])
    assert result.exit_code == 2
    assert "at least 16 characters" in result.output


def test_loopback_addresses() -> None:
    assert all(map(is_loopback, ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost"]))
    assert not any(map(is_loopback, ["0.0.0.0", "::", "10.0.0.1", "example.org", ""]))


def test_a_real_server_on_every_address_with_a_token_from_the_environment(tmp_path: Path) -> None:
    with served(tmp_path / "jobs.sqlite3", 1, "--host", "0.0.0.0", token=ALICE) as (url, _):
        assert httpx.get(f"{url}/healthz").status_code == 401
        answer = httpx.post(
            f"{url}/v1/check", json={"puzzle": TUTORIAL}, headers=bearer(ALICE), timeout=60
        )
        assert answer.json()["status"] == "unique"
