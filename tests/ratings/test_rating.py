"""The pure rating logic (ratings.rating) against the by-hand reference (reference.py)."""

from __future__ import annotations

import math

import pytest

from games.engine.bots import BOTS
from ratings import rating
from ratings.rating import INITIAL, RatingInputError, Skill, bot_skill, rate_match
from tests.ratings import reference

NEW = (25.0, 25 / 3)
RULES = (25.0, 2.0)
RANDOM = (18.0, 2.0)

# The fixed set of two solo matches (players A, B, C and a bot; places 1 best, ties share):
# match 1: A 1st, B and C tied 2nd, the rules bot 4th;
# match 2: B 1st, the random bot 2nd, C 3rd, A 4th.
MATCH_1 = {"seats": ("A", "B", "C", "rules"), "places": (1, 2, 2, 4)}
MATCH_2 = {"seats": ("B", "random", "C", "A"), "places": (1, 2, 3, 4)}


def test_the_first_match_worked_out_step_by_step():
    """Match 1, every step of the formulas with the numbers in (reference.py's notation)."""
    tau2 = (25 / 300) ** 2
    beta2 = (25 / 6) ** 2
    var_new = (25 / 3) ** 2 + tau2  # 69.4514 (σ² after τ)
    var_bot = 2.0**2 + tau2  # 4.00694
    c = math.sqrt(3 * (var_new + beta2) + (var_bot + beta2))
    assert c == pytest.approx(16.78707, abs=1e-5)
    e_new = math.exp(25 / c)  # every team's μ is 25: one value for all four
    # S_q: A (rank 1) sums all four; B, C (rank 2) sum B, C and the bot; the bot itself.
    s_a, s_bc, s_bot = 4 * e_new, 3 * e_new, e_new
    # A (rank 1, alone): q = A only.
    p = e_new / s_a  # 1/4
    omega_a = var_new / c * (1 - p)
    delta_a = math.sqrt(var_new) / c * var_new / c**2 * p * (1 - p)
    mu_a = 25 + omega_a
    sigma_a = math.sqrt(var_new) * math.sqrt(1 - delta_a)
    assert mu_a == pytest.approx(28.10290, abs=1e-5)
    assert sigma_a == pytest.approx(8.23761, abs=1e-5)
    # B (rank 2, tied with C: A_q = 2 for q in {B, C}): q = A, B, C.
    p_a, p_bc = e_new / s_a, e_new / s_bc  # 1/4, 1/3
    omega_b = var_new / c * (-p_a + (1 - p_bc) / 2 - p_bc / 2)
    delta_b = (
        math.sqrt(var_new) / c * var_new / c**2 * (p_a * (1 - p_a) + 2 * p_bc * (1 - p_bc) / 2)
    )
    # B and C are tied and equal: the average of their changes is B's own.
    mu_b = 25 + omega_b
    sigma_b = math.sqrt(var_new) * math.sqrt(1 - delta_b)
    assert mu_b == pytest.approx(24.65523, abs=1e-5)
    assert sigma_b == pytest.approx(8.12218, abs=1e-5)
    assert s_bot == e_new
    # The displayed ratings: round(1000 + 25 (μ − 3σ)).
    assert reference.display(mu_a, sigma_a) == 1085
    assert reference.display(mu_b, sigma_b) == 1007
    # The same numbers from the general by-hand function and from the site's logic.
    by_hand = reference.plackett_luce([[NEW], [NEW], [NEW], [RULES]], [1, 2, 2, 4])
    assert by_hand[0][0] == pytest.approx((mu_a, sigma_a), abs=1e-12)
    assert by_hand[1][0] == pytest.approx((mu_b, sigma_b), abs=1e-12)
    new = rate_match(
        family="solo",
        skills={0: INITIAL, 1: INITIAL, 2: INITIAL, 3: bot_skill("rules")},
        placements={0: 1, 1: 2, 2: 2, 3: 4},
        fixed={3},
    )
    assert set(new) == {0, 1, 2}  # the bot is never updated
    assert (new[0].mu, new[0].sigma) == pytest.approx((mu_a, sigma_a), abs=1e-9)
    assert (new[1].mu, new[1].sigma) == pytest.approx((mu_b, sigma_b), abs=1e-9)
    assert new[1] == new[2]


def hand_two_matches() -> dict[str, tuple[float, float]]:
    """The players' (mu, sigma) after MATCH_1 then MATCH_2, by the by-hand reference."""
    now = {"A": NEW, "B": NEW, "C": NEW, "rules": RULES, "random": RANDOM}
    for match in (MATCH_1, MATCH_2):
        teams = [[now[who]] for who in match["seats"]]
        out = reference.plackett_luce(teams, list(match["places"]))
        for who, team in zip(match["seats"], out, strict=True):
            if who in ("A", "B", "C"):  # bots keep their fixed skill
                now[who] = team[0]
    return {who: now[who] for who in ("A", "B", "C")}


def test_two_matches_in_a_row_equal_the_hand_reference():
    now = {"A": INITIAL, "B": INITIAL, "C": INITIAL}
    for match in (MATCH_1, MATCH_2):
        skills, fixed = {}, set()
        for seat, who in enumerate(match["seats"]):
            if who in now:
                skills[seat] = now[who]
            else:
                skills[seat], _ = bot_skill(who), fixed.add(seat)
        new = rate_match(
            family="solo",
            skills=skills,
            placements=dict(enumerate(match["places"])),
            fixed=fixed,
        )
        for seat, who in enumerate(match["seats"]):
            if seat in new:
                now[who] = new[seat]
    hand = hand_two_matches()
    for who in ("A", "B", "C"):
        assert (now[who].mu, now[who].sigma) == pytest.approx(hand[who], abs=1e-9)
    # Pinned: A won then came last, B tied 2nd then won, C tied 2nd then 3rd.
    assert {who: now[who].display for who in now} == {
        who: reference.display(*hand[who]) for who in hand
    }
    assert now["B"].display > now["A"].display


def test_partnership_rates_two_teams_of_two_and_a_bot_partner_is_fixed():
    skills = {0: INITIAL, 1: INITIAL, 2: bot_skill("random"), 3: INITIAL}
    new = rate_match(
        family="partnership", skills=skills, placements={0: 3, 1: 1, 2: 3, 3: 1}, fixed={2}
    )
    hand = reference.plackett_luce([[NEW, RANDOM], [NEW, NEW]], [3, 1])
    assert set(new) == {0, 1, 3}
    assert (new[0].mu, new[0].sigma) == pytest.approx(hand[0][0], abs=1e-9)
    assert (new[1].mu, new[1].sigma) == pytest.approx(hand[1][0], abs=1e-9)
    assert (new[3].mu, new[3].sigma) == pytest.approx(hand[1][1], abs=1e-9)
    assert new[1].mu > 25 > new[0].mu


def test_a_partnership_draw_moves_no_mean():
    new = rate_match(
        family="partnership",
        skills=dict.fromkeys(range(4), INITIAL),
        placements={s: 1 for s in range(4)},
    )
    assert all(s.mu == pytest.approx(25.0) and s.sigma < INITIAL.sigma for s in new.values())


def test_family_of_every_variant():
    assert rating.family_of("trix") == rating.family_of("complex") == "solo"
    assert rating.family_of("trix_partner") == rating.family_of("complex_partner") == "partnership"
    with pytest.raises(RatingInputError):
        rating.family_of("poker")


def test_every_bot_kind_has_a_fixed_skill():
    assert set(BOTS) <= set(rating.BOT_SKILLS)
    assert bot_skill("rules").display == 1475 and bot_skill("random").display == 1300
    assert bot_skill("someday") == bot_skill("rules")


def test_display_scale():
    assert INITIAL.display == 1000  # μ − 3σ = 0
    assert Skill(25.0, 5 / 3).display == 1500
    assert rating.display(30.0, 2.0) == round(1000 + 25 * 24)


@pytest.mark.parametrize(
    "family,placements,message",
    [
        ("solo", {0: 1, 1: 2, 2: 3}, "every seat"),
        ("solo", {0: 1, 1: 2, 2: 3, 3: 5}, "place must be 1..4"),
        ("solo", {0: 1, 1: 2, 2: 3, 3: True}, "place must be 1..4"),
        ("partnership", {0: 1, 1: 3, 2: 3, 3: 1}, "partners 0 and 2"),
        ("trios", {0: 1, 1: 2, 2: 3, 3: 4}, "unknown family"),
    ],
)
def test_bad_placements_are_refused(family, placements, message):
    with pytest.raises(RatingInputError, match=message):
        rate_match(family=family, skills=dict.fromkeys(range(4), INITIAL), placements=placements)
