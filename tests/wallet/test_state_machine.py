"""A Hypothesis state machine: random deposits, stakes, refunds, settlements, withdrawals and
replays against the ledger on PostgreSQL and a simple in-memory model; balances compared
after every step, ``ledger_check`` at the end of every run."""

from collections import defaultdict

import pytest
from django.core.management import call_command
from django.db import transaction
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from wallet import selectors, services
from wallet.errors import (
    EscrowClosed,
    IdempotencyConflict,
    InsufficientFunds,
    NothingToRefund,
    SettlementMismatch,
    UnknownAccount,
)
from wallet.models import EXTERNAL, HOUSE, Account
from wallet.settlement import split_pot

SEATS = range(4)
TABLES = ["table:1", "table:2"]
amounts = st.integers(min_value=1, max_value=400)


class LedgerMachine(RuleBasedStateMachine):
    users: list = []  # set by the test

    @initialize(opening=st.lists(st.integers(0, 3_000), min_size=4, max_size=4))
    def start(self, opening):
        self.savepoint = transaction.savepoint()
        self.wallets: dict[int, int] = {}  # seat -> balance; absent = no wallet yet
        self.staked: dict[str, dict[int, int]] = defaultdict(dict)  # table -> seat -> amount
        self.closed: set[str] = set()
        self.house = 0
        self.external = 0
        self.n = 0
        self.done: list = []  # successful calls, to replay
        for seat, amount in enumerate(opening):
            if amount:
                self.deposit(seat, amount)

    def teardown(self):
        if hasattr(self, "savepoint"):
            transaction.savepoint_rollback(self.savepoint)

    def key(self):
        self.n += 1
        return f"k{self.n}"

    # ------------------------------------------------------------------ rules

    @rule(seat=st.sampled_from(SEATS), amount=amounts)
    def deposit(self, seat, amount):
        key = self.key()
        call = lambda: services.deposit(user=self.users[seat], amount=amount, key=key)  # noqa: E731
        call()
        self.wallets[seat] = self.wallets.get(seat, 0) + amount
        self.external -= amount
        self.done.append(call)

    @rule(seat=st.sampled_from(SEATS), amount=amounts)
    def withdraw(self, seat, amount):
        key = self.key()
        call = lambda: services.withdraw(user=self.users[seat], amount=amount, key=key)  # noqa: E731
        if seat not in self.wallets:
            with pytest.raises(UnknownAccount):
                call()
        elif amount > self.wallets[seat]:
            with pytest.raises(InsufficientFunds):
                call()
        else:
            call()
            self.wallets[seat] -= amount
            self.external += amount
            self.done.append(call)

    @rule(seat=st.sampled_from(SEATS), table=st.sampled_from(TABLES), amount=amounts)
    def stake(self, seat, table, amount):
        key = self.key()

        def call():
            return services.stake(user=self.users[seat], table_ref=table, amount=amount, key=key)

        if seat not in self.wallets:
            with pytest.raises(UnknownAccount):
                call()
        elif table in self.closed:
            expected = EscrowClosed if amount <= self.wallets[seat] else InsufficientFunds
            with pytest.raises((EscrowClosed, InsufficientFunds)) as excinfo:
                call()
            assert isinstance(excinfo.value, expected) or amount > self.wallets[seat]
        elif amount > self.wallets[seat]:
            with pytest.raises(InsufficientFunds):
                call()
        else:
            call()
            self.wallets[seat] -= amount
            self.staked[table][seat] = self.staked[table].get(seat, 0) + amount
            self.done.append(call)

    @precondition(lambda self: self.staked)
    @rule(data=st.data())
    def refund(self, data):
        table = data.draw(st.sampled_from(sorted(self.staked)))
        seat = data.draw(st.sampled_from(SEATS))
        key = self.key()
        call = lambda: services.refund(user=self.users[seat], table_ref=table, key=key)  # noqa: E731
        if table not in self.staked and table not in self.closed or seat not in self.wallets:
            with pytest.raises(UnknownAccount):
                call()
        elif table in self.closed:
            with pytest.raises(EscrowClosed):
                call()
        elif not self.staked[table].get(seat):
            with pytest.raises(NothingToRefund):
                call()
        else:
            call()
            self.wallets[seat] += self.staked[table].pop(seat)
            event("refunded")
            self.done.append(call)

    @precondition(lambda self: self.staked)
    @rule(
        data=st.data(),
        scores=st.lists(st.integers(-2, 2), min_size=4, max_size=4),
        team_mode=st.booleans(),
        forfeit=st.one_of(st.none(), st.sampled_from(SEATS)),
        fee=st.sampled_from([0, 0, 250, 1000]),
    )
    def settle(self, data, scores, team_mode, forfeit, fee):
        table = data.draw(st.sampled_from(sorted(self.staked)))
        if team_mode:
            scores[2], scores[3] = scores[0], scores[1]
        places = {s: 1 + sum(o > scores[s] for o in scores) for s in SEATS}
        result = {"placements": {str(s): p for s, p in places.items()}, "forfeit": forfeit}
        seats = {s: self.users[s] for s in SEATS}
        key = self.key()
        call = lambda: services.settle_match(  # noqa: E731
            table_ref=table,
            seat_users=seats,
            result=result,
            team_mode=team_mode,
            key=key,
            house_fee_bps=fee,
        )
        stakes = {s: a for s, a in self.staked.get(table, {}).items() if a}
        if table in self.closed:
            with pytest.raises(EscrowClosed):
                call()
            return
        if table not in self.staked:
            with pytest.raises(UnknownAccount):
                call()
            return
        if not stakes:
            with pytest.raises(SettlementMismatch):
                call()
            return
        event("settled")
        split = split_pot(
            sum(stakes.values()), stakes, places, team_mode, forfeit=forfeit, house_fee_bps=fee
        )
        call()
        for seat, amount in split.payouts.items():
            self.wallets[seat] += amount
        self.house += split.house_fee
        self.staked[table] = {}
        self.closed.add(table)
        self.done.append(call)

    @precondition(lambda self: self.done)
    @rule(data=st.data())
    def replay(self, data):
        """A retried call with the same key and request moves nothing."""
        call = data.draw(st.sampled_from(self.done))
        call()

    @precondition(lambda self: self.n > 0)
    @rule(seat=st.sampled_from(SEATS), amount=amounts, which=st.integers(1, 10**6))
    def reused_key(self, seat, amount, which):
        """A used key with other contents is refused."""
        key = f"k{1 + which % self.n}"
        if seat in self.wallets:
            from wallet.models import Transaction

            if Transaction.objects.filter(idempotency_key=key).exists():
                with pytest.raises(IdempotencyConflict):
                    services.deposit(user=self.users[seat], amount=10**6 + amount, key=key)

    # ------------------------------------------------------------------ invariants

    @invariant()
    def balances_match_the_model(self):
        if not hasattr(self, "wallets"):
            return
        for seat in SEATS:
            assert selectors.wallet_balance(self.users[seat]) == self.wallets.get(seat, 0)
        for table in TABLES:
            assert selectors.escrow_balance(table) == sum(self.staked.get(table, {}).values())
            assert selectors.is_escrow_closed(table) == (table in self.closed)
        system = dict(Account.objects.filter(kind="system").values_list("reference", "balance"))
        assert system.get(HOUSE, 0) == self.house
        assert system.get(EXTERNAL, 0) == self.external

    def check_ledger(self):
        call_command("ledger_check", verbosity=0)


@pytest.mark.django_db
def test_ledger_matches_the_model(make_user, immediate_constraints):
    users = [make_user() for _ in SEATS]

    class Machine(LedgerMachine):
        def teardown(self):
            if hasattr(self, "savepoint"):
                self.check_ledger()
            super().teardown()

    Machine.users = users
    run_state_machine_as_test(
        Machine,
        settings=settings(
            max_examples=50,
            stateful_step_count=40,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        ),
    )
