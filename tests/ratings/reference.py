"""A by-hand Plackett–Luce update (Weng & Lin 2011, Algorithm 4, as openskill 6 applies it),
written out from the formulas, for the ratings tests to compare against: no openskill here.

Constants (openskill's defaults): β = 25/6, τ = 25/300, κ = 0.0001.

For teams i with ranks r(i) (1 best, ties equal), each player's σ first becomes
√(σ² + τ²); then, with team sums μ_i = Σ μ and σ²_i = Σ σ²:

    c   = √( Σ_i (σ²_i + β²) )
    S_q = Σ_{s : r(s) ≥ r(q)} exp(μ_s / c)            (the teams placed no better than q)
    A_q = |{s : r(s) = r(q)}|                          (the teams tied with q)
    p_iq = exp(μ_i / c) / S_q
    Ω_i = σ²_i / c  · Σ_{q : r(q) ≤ r(i)} ( [q = i] − p_iq ) / A_q
    Δ_i = γ_i · σ²_i / c² · Σ_{q : r(q) ≤ r(i)} p_iq (1 − p_iq) / A_q,   γ_i = σ_i / c

and each player j of team i:

    μ_j ← μ_j + (σ²_j / σ²_i) Ω_i
    σ_j ← σ_j · √( max(1 − (σ²_j / σ²_i) Δ_i, κ) )

Teams tied on a rank then share the average of their (first players') μ changes.
"""

from __future__ import annotations

import math

BETA = 25 / 6
TAU = 25 / 300
KAPPA = 0.0001


def plackett_luce(teams: list[list[tuple[float, float]]], ranks: list[int]):
    """Teams of (mu, sigma) and their ranks -> the teams' new (mu, sigma)."""
    teams = [[(mu, math.sqrt(sigma * sigma + TAU * TAU)) for mu, sigma in team] for team in teams]
    mus = [sum(mu for mu, _ in team) for team in teams]
    var = [sum(sigma * sigma for _, sigma in team) for team in teams]
    k = len(teams)
    c = math.sqrt(sum(v + BETA * BETA for v in var))
    e = [math.exp(m / c) for m in mus]
    s = [sum(e[x] for x in range(k) if ranks[x] >= ranks[q]) for q in range(k)]
    a = [sum(1 for x in range(k) if ranks[x] == ranks[q]) for q in range(k)]
    out = []
    for i in range(k):
        omega = delta = 0.0
        for q in range(k):
            if ranks[q] > ranks[i]:
                continue
            p = e[i] / s[q]
            omega += ((1.0 if q == i else 0.0) - p) / a[q]
            delta += p * (1 - p) / a[q]
        omega *= var[i] / c
        delta *= (math.sqrt(var[i]) / c) * var[i] / (c * c)
        new_team = []
        for mu, sigma in teams[i]:
            share = sigma * sigma / var[i]
            new_team.append((mu + share * omega, sigma * math.sqrt(max(1 - share * delta, KAPPA))))
        out.append(new_team)
    for rank in set(ranks):
        tied = [i for i in range(k) if ranks[i] == rank]
        if len(tied) > 1:
            change = sum(out[i][0][0] - teams[i][0][0] for i in tied) / len(tied)
            for i in tied:
                out[i] = [(teams[i][j][0] + change, out[i][j][1]) for j in range(len(out[i]))]
    return out


def display(mu: float, sigma: float) -> int:
    """The site's displayed rating: round(1000 + 25 (μ − 3σ)) (docs/ratings.md)."""
    return round(1000 + 25 * (mu - 3 * sigma))
