"""The site's one rule for typed amounts (``docs/i18n.md``, "Typed amounts"), implemented once
on the server (``wallet.forms.parse_amount``) and once in the pages
(``web/static/web/amount.js``): both read every line of ``amount_vectors.json`` alike."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django import forms

from wallet.forms import AMOUNT_ERRORS, parse_amount

ROOT = Path(__file__).resolve().parents[2]
VECTORS = json.loads((Path(__file__).with_name("amount_vectors.json")).read_text("utf-8"))
AMOUNT_JS = ROOT / "web/static/web/amount.js"
_READ_IN_NODE = """
require(%s);
let input = "";
process.stdin.on("data", (chunk) => (input += chunk));
process.stdin.on("end", () => {
  const { texts, decimals } = JSON.parse(input);
  process.stdout.write(JSON.stringify(texts.map((t) => globalThis.TrixAmount.parse(t, decimals))));
});
"""


def expected(vector: dict) -> dict:
    return {"amount": vector["amount"]} if "amount" in vector else {"error": vector["error"]}


def read_in_python(text: str) -> dict:
    try:
        return {"amount": parse_amount(text, allow_zero=True)}
    except forms.ValidationError as exc:
        return {"error": exc.code}


def test_the_vectors_cover_every_refusal_but_zero():
    codes = {v["error"] for v in VECTORS["vectors"] if "error" in v}
    assert codes == set(AMOUNT_ERRORS) - {"zero"}


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda v: repr(v["text"]))
def test_the_server_reads_each_vector(settings, vector):
    settings.TRIX_CURRENCY_DECIMALS = VECTORS["decimals"]
    assert read_in_python(vector["text"]) == expected(vector)


def test_the_pages_read_every_vector_as_the_server_does():
    if shutil.which("node") is None:  # ./dev test installs it (as Chromium)
        pytest.skip("needs Node.js (Debian's nodejs)")
    texts = [v["text"] for v in VECTORS["vectors"]]
    done = subprocess.run(
        ["node", "-e", _READ_IN_NODE % json.dumps(str(AMOUNT_JS))],
        input=json.dumps({"texts": texts, "decimals": VECTORS["decimals"]}),
        capture_output=True,
        text=True,
        check=True,
    )
    read = json.loads(done.stdout)
    assert dict(zip(texts, read, strict=True)) == {
        v["text"]: expected(v) for v in VECTORS["vectors"]
    }


def test_zero_is_refused_unless_allowed():
    with pytest.raises(forms.ValidationError) as err:
        parse_amount("0.00")
    assert err.value.code == "zero"
    assert parse_amount("0.00", allow_zero=True) == 0
