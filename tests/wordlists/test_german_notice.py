"""The NOTICE beside the German lists: dpkg versions, and what the shipped NOTICE names."""

from __future__ import annotations

from pathlib import Path

import raten
from raten.wordlists.german import notice
from raten.wordlists.german.notice import debian_version

DATA = Path(raten.__file__).parent / "data" / "de"


def test_debian_version_reads_dpkg_status(tmp_path: Path) -> None:
    status = tmp_path / "status"
    status.write_text("Package: other\nVersion: 1\n\nPackage: wngerman\nStatus: ok\nVersion: 20161207-11\n")
    assert debian_version(status=status) == "20161207-11"
    assert debian_version("absent", status=status) is None
    assert debian_version(status=tmp_path / "nothing") is None


def test_shipped_notice_names_sources_and_licences() -> None:
    notice = (DATA / "NOTICE").read_text(encoding="utf-8")
    for needle in ("wngerman 20161207", "GPL-2+", "wordfreq 3.", "CC BY-SA 4.0", "Apache-2.0", "raten words build"):
        assert needle in notice, needle


def test_template_and_shipped_notice_name_the_builder_package() -> None:
    line = "How they were made (src/raten/wordlists/german/)"
    assert line in notice.NOTICE_TEMPLATE
    assert line in (DATA / "NOTICE").read_text(encoding="utf-8")
    assert Path(notice.__file__).parent.as_posix().endswith("raten/wordlists/german")
