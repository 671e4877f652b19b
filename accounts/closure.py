"""A player closes their own account.

Closing needs the account's password, an empty wallet (the balance withdrawn first), no seat
at a table not over, no tournament entry in progress and no time-out or self-exclusion in
force. It turns login off
(``user.is_active`` False: allauth and Django refuse the password, and a session open
elsewhere no longer authenticates), records the :class:`~accounts.models.Closure`, and
replaces the display name by the marker :data:`accounts.selectors.CLOSED_MARK`
(``Closed account <id>``; a profile is made if the account had none), so the lobby, tables,
leaderboards, tournaments and profile pages no longer show the person's chosen name: they
show ``Closed account <id>`` in the reader's language
(:func:`accounts.selectors.display_name`). Kept, as a
licensed operator must keep them (anti-money-laundering record keeping): the ledger's
entries (never deleted or edited), the username and email address (not shown to other
players; the email address stays taken, so the person cannot sign up again with it
unnoticed), the identity check's outcome and any suspension, and past tables' event logs
(the signed record of each match, with the name it was played under).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import Closure, Profile
from accounts.names import name_key
from accounts.selectors import CLOSED_MARK
from games.selectors import tables_in_play
from responsible.gates import format_when
from responsible.selectors import active_exclusion
from tournaments.selectors import entries_in_progress, tournament_names
from wallet.selectors import format_money, wallet_balance


def closure_links(user: Any) -> dict[str, str]:
    """The words of the links :func:`closure_blockers`' messages make of the pages they name
    beyond the site's own (``web.links.link_paths``' ``titles``): each tournament in
    progress's path -> its name, ``{"/tournaments/7/": "Friday Cup"}``."""
    names = tournament_names(entries_in_progress(user))
    return {reverse("tournaments:detail", args=[pk]): name for pk, name in names.items()}


def closure_blockers(user: Any) -> list[str]:
    """What keeps ``user`` from closing now, as messages (empty: nothing): money in the
    wallet, seats at tables not over, tournaments registered for or being played (not yet
    over: ``entries_in_progress``), a time-out or self-exclusion
    in force (closing could be a way round it: a new account, verified again)."""
    problems = []
    balance = wallet_balance(user)
    if balance:
        problems.append(
            _("Your wallet holds %(balance)s: withdraw it first from /wallet/.")
            % {"balance": format_money(balance)}
        )
    held = tables_in_play(user)
    if held:
        # Each table by its page's path: the close page shows it as a link naming the table
        # (web.links.link_paths), so the player knows which to leave.
        paths = _(", ").join(reverse("web:table", args=[pk]) for pk in held)
        problems.append(
            ngettext(
                "You hold a seat at %(tables)s, a table that is not over: leave it or finish "
                "the match first.",
                "You hold seats at %(count)d tables that are not over, %(tables)s: leave them "
                "or finish the matches first.",
                len(held),
            )
            % {"count": len(held), "tables": paths}
        )
    entered = entries_in_progress(user)
    if entered:
        # Each by its page's path, as the tables: the close page links it by the event's name
        # (closure_links).
        paths = _(", ").join(reverse("tournaments:detail", args=[pk]) for pk in entered)
        problems.append(
            ngettext(
                "You are registered for or playing in %(tournaments)s: unregister before it "
                "starts, or wait for its end.",
                "You are registered for or playing in %(count)d tournaments, %(tournaments)s: "
                "unregister before they start, or wait for their end.",
                len(entered),
            )
            % {"count": len(entered), "tournaments": paths}
        )
    exclusion = active_exclusion(user, timezone.now())
    if exclusion is not None:
        # Closing would let the person sign up again, verify and play before it ends.
        problems.append(
            _(
                "You are in a time-out or self-exclusion until %(end)s: the account can be "
                "closed once it ends."
            )
            % {"end": format_when(exclusion.ends_at)}
            if exclusion.ends_at is not None
            else _(
                "You are self-excluded for good: the account is kept so that the exclusion "
                "stays in force."
            )
        )
    return problems


def close_account(*, user: Any, password: str) -> Closure:
    """Close ``user``'s account (see the module docstring) after checking ``password`` and
    :func:`closure_blockers`, under the user's row lock. Raises ``ValidationError`` with the
    message(s) (wrong password, already closed, a blocker); nothing changed then."""
    if not isinstance(password, str) or not user.check_password(password):
        raise ValidationError(_("That is not your password."))
    with transaction.atomic():
        locked = get_user_model().objects.select_for_update().get(pk=user.pk)
        if not locked.is_active or Closure.objects.filter(user=locked).exists():
            raise ValidationError(_("This account is already closed."))
        problems = closure_blockers(locked)
        if problems:
            raise ValidationError(problems)
        locked.is_active = False
        locked.save(update_fields=["is_active"])
        mark = CLOSED_MARK % {"id": locked.pk}
        Profile.objects.update_or_create(
            user=locked,
            defaults={"display_name": mark, "name_key": name_key(mark)},
            create_defaults={
                "display_name": mark,
                "name_key": name_key(mark),
                "username_key": name_key(locked.get_username()),
            },
        )
        closure = Closure.objects.create(user=locked, closed_at=timezone.now())
    user.is_active = False
    return closure
