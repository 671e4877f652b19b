"""Account pages through the Django test client: sign up, log in, log out, password reset,
the profile's display name; bad input gives a clear message and changes nothing."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail

from accounts.models import Profile
from accounts.selectors import display_name

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "pw-Trix-2025!"


@pytest.fixture
def user():
    u = User.objects.create_user("ana", "ana@example.com", PASSWORD)
    Profile.objects.create(user=u, display_name="Ana")
    return u


def signup(client, **overrides):
    data = {
        "username": "fahd",
        "email": "fahd@example.com",
        "password1": PASSWORD,
        "password2": PASSWORD,
        "display_name": "أبو فهد",
    }
    data.update(overrides)
    return client.post("/accounts/signup/", data)


def test_signup_page_asks_for_a_display_name(client):
    page = client.get("/accounts/signup/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'name="display_name"' in html and 'dir="auto"' in html
    assert "site.css" in html  # in the site's layout


def test_signup_creates_the_user_with_an_arabic_display_name_and_logs_in(client):
    response = signup(client)
    assert response.status_code == 302
    user = User.objects.get(username="fahd")
    assert display_name(user) == "أبو فهد"
    lobby = client.get("/")
    assert "أبو فهد" in lobby.content.decode()
    assert len(mail.outbox) == 1  # the address confirmation (console backend by default)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"display_name": "   "}, "This field is required."),
        ({"display_name": "x" * 41}, "at most 40 characters"),
        ({"password2": "something-else-1"}, "You must type the same password each time."),
        ({"password1": "123", "password2": "123"}, "This password is too short."),
        ({"email": "not-an-email"}, "Enter a valid email address."),
    ],
)
def test_signup_with_bad_input_says_why_and_creates_nothing(client, overrides, message):
    response = signup(client, **overrides)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not User.objects.filter(username="fahd").exists()


def test_signup_with_a_taken_username_says_so(client, user):
    response = signup(client, username="ana", email="other@example.com")
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.filter(username="ana").count() == 1


def test_login_with_a_wrong_password_gives_a_clear_message(client, user):
    response = client.post("/accounts/login/", {"login": "ana", "password": "wrong-password"})
    assert response.status_code == 200
    assert "The username and/or password you specified are not correct." in (
        response.content.decode()
    )
    assert "_auth_user_id" not in client.session


def test_login_by_username_or_email_then_logout(client, user):
    response = client.post("/accounts/login/", {"login": "ana", "password": PASSWORD})
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)
    client.post("/accounts/logout/")
    assert "_auth_user_id" not in client.session
    response = client.post("/accounts/login/", {"login": "ana@example.com", "password": PASSWORD})
    assert response.status_code == 302


def test_password_reset_sends_a_link_that_sets_a_new_password(client, user):
    assert client.get("/accounts/password/reset/").status_code == 200
    response = client.post("/accounts/password/reset/", {"email": "ana@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/password/reset/key/\S+)", mail.outbox[0].body)
    assert link, mail.outbox[0].body
    form = client.get(link.group(1), follow=True)
    assert form.status_code == 200
    new = "new-Trix-pw-2025"
    done = client.post(
        form.redirect_chain[-1][0] if form.redirect_chain else link.group(1),
        {"password1": new, "password2": new},
    )
    assert done.status_code == 302
    user.refresh_from_db()
    assert user.check_password(new)


def test_password_reset_for_an_unknown_address_reveals_nothing(client, user):
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert response.status_code == 302  # same answer as for a known address


def test_profile_needs_login_and_edits_the_display_name(client, user):
    assert client.get("/accounts/profile/").status_code == 302
    client.force_login(user)
    page = client.get("/accounts/profile/")
    assert page.status_code == 200 and 'value="Ana"' in page.content.decode()
    response = client.post("/accounts/profile/", {"display_name": "  سارة  الحربي "}, follow=True)
    assert "Display name saved." in response.content.decode()
    assert display_name(User.objects.get(pk=user.pk)) == "سارة الحربي"


def test_profile_rejects_an_empty_or_unprintable_name(client, user):
    client.force_login(user)
    for bad, message in [("", "This field is required."), ("a\u0000b", "Null characters")]:
        response = client.post("/accounts/profile/", {"display_name": bad})
        assert response.status_code == 200
        assert message in response.content.decode()
    assert display_name(User.objects.get(pk=user.pk)) == "Ana"


def test_display_name_falls_back_to_the_username():
    u = User.objects.create_user("nobody")
    assert display_name(u) == "nobody"


def test_the_signed_in_message_greets_by_display_name(client, user):
    user.profile.display_name = "أنا"
    user.profile.save()
    response = client.post("/accounts/login/", {"login": "ana", "password": PASSWORD}, follow=True)
    html = response.content.decode()
    assert "Successfully signed in as أنا." in html
    assert "signed in as ana" not in html


def test_signup_with_a_display_name_in_use_says_so(client, user):
    # Found by a new user: two players could both sign up as "Ana" and look alike at a table.
    response = signup(client, display_name="  ana ")
    assert response.status_code == 200
    assert "That display name is taken" in response.content.decode()
    assert not User.objects.filter(username="fahd").exists()


def test_profile_refuses_another_players_display_name_but_keeps_ones_own(client, user):
    other = User.objects.create_user("omar", "omar@example.com", PASSWORD)
    Profile.objects.create(user=other, display_name="Omar")
    client.force_login(user)
    taken = client.post("/accounts/profile/", {"display_name": "OMAR"})
    assert "That display name is taken" in taken.content.decode()
    assert display_name(user) == "Ana"
    same = client.post("/accounts/profile/", {"display_name": "Ana"})
    assert same.status_code == 302 and display_name(user) == "Ana"
