"""Where the database is: --db, $SPITE_MALICE_DB, $DATABASE_URL, else the per-user file."""

from __future__ import annotations

from pathlib import Path

import pytest

from spite_malice.store import Store, StoreError, default_path, describe, resolve_url


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("SPITE_MALICE_DB", raising=False)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def test_default_is_a_file_in_the_user_data_folder(tmp_path: Path) -> None:
    expected = tmp_path / "data" / "spite-malice" / "spite-malice.db"
    assert default_path() == expected
    assert resolve_url() == f"sqlite:///{expected}"
    with Store.open() as store:
        assert store.location == str(expected)
    assert expected.is_file()


def test_precedence_argument_then_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://u:secret@db.example/x")
    assert resolve_url() == "postgresql+psycopg://u:secret@db.example/x"
    monkeypatch.setenv("SPITE_MALICE_DB", str(tmp_path / "env.db"))
    assert resolve_url() == f"sqlite:///{tmp_path / 'env.db'}"
    assert resolve_url(tmp_path / "arg.db") == f"sqlite:///{tmp_path / 'arg.db'}"


def test_urls_pass_through_and_passwords_are_hidden() -> None:
    assert resolve_url("postgres://u:p@h/d") == "postgresql+psycopg://u:p@h/d"
    assert resolve_url("postgresql+psycopg://u:p@h/d") == "postgresql+psycopg://u:p@h/d"
    assert describe("postgresql+psycopg://u:p@h/d") == "postgresql+psycopg://u:***@h/d"


def test_a_relative_path_is_made_absolute(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    assert resolve_url("games.db") == f"sqlite:///{tmp_path / 'games.db'}"


def test_folders_are_created_for_a_new_file(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "games.db"
    with Store.open(str(target)) as store:
        assert store.location == str(target)
    assert target.is_file()


def test_an_unreachable_server_is_a_clear_error_without_the_password() -> None:
    with pytest.raises(StoreError, match="cannot open the database") as raised:
        Store.open("postgresql://nobody:s3cret@127.0.0.1:1/none?connect_timeout=2")
    assert "s3cret" not in str(raised.value)
    assert "nobody:***@127.0.0.1:1/none" in str(raised.value)
