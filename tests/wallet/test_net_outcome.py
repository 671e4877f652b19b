"""The money label of a player's net at a table (``wallet.selectors.net_outcome``) and the
per-player nets the ledger holds for a table (``wallet.selectors.table_nets``)."""

from __future__ import annotations

import pytest

from wallet.selectors import NET_OUTCOMES, net_outcome


@pytest.mark.parametrize(
    ("net", "expected"),
    [(1, "won"), (20, "won"), (-1, "lost"), (-60, "lost"), (0, "refunded")],
)
def test_the_label_follows_the_sign_of_the_net(net, expected):
    assert net_outcome(net) == expected
    assert expected in NET_OUTCOMES
