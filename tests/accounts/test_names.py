"""Display names that impersonate are refused (issue 13, item 7): a name with no visible
character, one whose UTS #39 confusable skeleton is another player's display name or
username (a Cyrillic look-alike, a digit for a letter), each with a message saying why, on
the sign-up and profile forms and in ``accounts.services.set_display_name`` (the one writer;
no API sets a display name). Arabic names, with Arabic-Indic or Latin digits, still pass."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from accounts import services
from accounts.models import Profile
from accounts.selectors import display_name

pytestmark = pytest.mark.django_db
User = get_user_model()
PASSWORD = "pw-Trix-2025!"


@pytest.fixture
def ana(db):
    user = User.objects.create_user("ana", "ana@example.com")
    services.set_display_name(user, "Omar Khalid")
    return user


BLANK = [
    "\u3164",  # HANGUL FILLER, a letter that renders blank
    "\u3164 \u3164",
    "\u115f\u1160",  # Hangul choseong / jungseong fillers
    "\uffa0",  # HALFWIDTH HANGUL FILLER
    "\u2800\u2800",  # BRAILLE PATTERN BLANK
    "\u0301\u0301",  # combining marks with nothing to sit on
    "\u034f",  # COMBINING GRAPHEME JOINER
    "\u17b5\u17b4",  # Khmer inherent vowels (invisible)
    "\ufe0f",  # a variation selector alone
    "\u0651\u064b",  # Arabic marks (shadda, fathatan) alone
]


@pytest.mark.parametrize("name", BLANK)
def test_a_name_with_no_visible_character_is_refused(ana, name):
    with pytest.raises(ValidationError, match="visible character"):
        services.set_display_name(ana, name)
    assert display_name(User.objects.get(pk=ana.pk)) == "Omar Khalid"


@pytest.mark.parametrize(
    "name",
    [
        "Оmar Khalid",  # Cyrillic О (U+041E)
        "Omаr Khаlid",  # Cyrillic а (U+0430)
        "0mar Khalid",  # a zero for the O
        "Omar KhaIid",  # capital I for the l
        "Omar\u200bKhalid",  # a zero-width space cannot pass (refused as unprintable anyway)
        "ＯＭＡＲ ＫＨＡＬＩＤ",  # fullwidth
        "𝐎𝐦𝐚𝐫 𝐊𝐡𝐚𝐥𝐢𝐝",  # mathematical bold
    ],
)
def test_a_look_alike_of_another_players_display_name_is_refused(ana, name):
    bob = User.objects.create_user("bob")
    with pytest.raises(ValidationError) as refused:
        services.set_display_name(bob, name)
    message = " ".join(refused.value.messages)
    assert "looks like" in message or "cannot be shown" in message, message
    assert not Profile.objects.filter(user=bob).exists()


@pytest.mark.parametrize("name", ["ana", "ANA", "аna", "аnа", "ａｎａ"])  # Cyrillic а, fullwidth
def test_another_accounts_username_or_its_look_alike_is_refused(ana, name):
    bob = User.objects.create_user("bob")
    with pytest.raises(ValidationError, match="username"):
        services.set_display_name(bob, name)


def test_a_username_of_an_account_without_a_profile_counts_too(db):
    User.objects.create_superuser("root", "root@example.com")  # no profile
    bob = User.objects.create_user("bob")
    with pytest.raises(ValidationError, match="username"):
        services.set_display_name(bob, "rооt")  # Cyrillic о twice


def test_ones_own_username_and_name_in_another_form_are_allowed(ana):
    services.set_display_name(ana, "ana")  # her own username
    services.set_display_name(ana, "Omar Khalid")
    services.set_display_name(ana, "Оmar Khalid")  # a look-alike of her own name only


ARABIC = [
    "محمد بن سلمان",
    "عبد الرحمن",
    "فاطمة الزهراء",
    "أبو فهد",
    "خالد ٢٠٢٤",  # Arabic-Indic digits
    "سارة99",  # Latin digits
    "نور ١٢ 34",  # both
    "ياسمين",
    "Omar عمر",
    "حسن",
    "حسين",
    "ليلى ۱۴۰۲",  # Extended Arabic-Indic (Persian) digits
    "عليّ",  # with a shadda
]


def test_real_arabic_names_are_accepted_side_by_side(db):
    for i, name in enumerate(ARABIC):
        user = User.objects.create_user(f"player{i}")
        services.set_display_name(user, name)
        assert display_name(user) == name


def test_the_signup_form_refuses_a_look_alike_and_a_blank_name_with_a_message(client, ana):
    data = {
        "username": "fahd2",
        "email": "fahd2@example.com",  # not test_pages' (allauth rate-limits mail per address)
        "password1": PASSWORD,
        "password2": PASSWORD,
    }
    for name, words in [
        ("Оmar Khalid", "looks like another player"),
        ("\u3164", "visible character"),
        ("аna", "username"),
    ]:
        response = client.post("/accounts/signup/", {**data, "display_name": name})
        assert response.status_code == 200
        assert words in response.content.decode(), name
    assert not User.objects.filter(username="fahd2").exists()
    response = client.post("/accounts/signup/", {**data, "display_name": "فهد ٣"})
    assert response.status_code == 302 and display_name(User.objects.get(username="fahd2"))


def test_the_profile_form_refuses_a_look_alike_with_a_message(client, ana):
    bob = User.objects.create_user("bob")
    services.set_display_name(bob, "Bob")
    client.force_login(bob)
    response = client.post("/accounts/profile/", {"display_name": "Omаr Khalid"})
    assert response.status_code == 200
    assert "looks like another player" in response.content.decode()
    assert display_name(User.objects.get(pk=bob.pk)) == "Bob"


#: Names a bot's seat shows (``Bot N`` in the lobby and on the table page, ``روبوت N`` in
#: Arabic, ``bot`` in a tournament's bracket, the bot's kind in the API) and look-alikes.
BOT_LIKE = [
    "Bot 2",
    "bot 2",
    "BOT 4",
    "Bot2",
    "Bot  1",
    "Bot-3",
    "Bot #2",
    "B0t 2",  # a zero for the o
    "Вот 2",  # Cyrillic Ve and o
    "Ｂｏｔ ２",  # fullwidth
    "Bot 12",
    "Bot ٢",  # an Arabic-Indic digit
    "bot",
    "Bots",
    "روبوت 2",
    "روبوت ٣",
    "روبوت",
    "بوت 1",
    "rules",
    "Random",
]


@pytest.mark.parametrize("name", BOT_LIKE)
def test_a_bots_name_or_its_look_alike_is_refused(db, name):
    """Found by a fresh reviewer: a human could take ``Bot 2`` and pass for a bot."""
    user = User.objects.create_user("mimic")
    with pytest.raises(ValidationError, match="bot"):
        services.set_display_name(user, name)
    assert not Profile.objects.filter(user=user).exists()


@pytest.mark.parametrize("name", ["Bottle", "Abbot", "Robot Wars", "Boutros", "بوتين", "Botan 2"])
def test_names_that_only_contain_bot_are_accepted(db, name):
    user = User.objects.create_user("fine")
    services.set_display_name(user, name)
    assert display_name(user) == name


def test_the_profile_form_refuses_a_bots_name_with_a_message(client):
    bob = User.objects.create_user("bob")
    services.set_display_name(bob, "Bob")
    client.force_login(bob)
    response = client.post("/accounts/profile/", {"display_name": "Bot 2"})
    assert response.status_code == 200
    assert "bots" in response.content.decode()
    assert display_name(User.objects.get(pk=bob.pk)) == "Bob"


def test_persian_digits_pass_for_arabic_indic_ones(django_user_model):
    """``ليلى۲`` (Extended Arabic-Indic two, U+06F2) is drawn as ``ليلى٢`` (U+0662): refused
    (found by a reviewer: the two keys differed)."""
    from django.core.exceptions import ValidationError

    from accounts.services import check_display_name_free, set_display_name

    layla = django_user_model.objects.create_user("layla")
    set_display_name(user=layla, name="ليلى٢")
    with pytest.raises(ValidationError, match="looks like another player"):
        check_display_name_free("ليلى۲")


@pytest.mark.parametrize(
    "name",
    ["Closed account 12", "closed account", "Closed  Account #7", "حساب مغلق ١٢", "حساب مغلق"],
)
def test_a_closed_accounts_name_is_refused(db, name):
    """A closed account is shown as ``Closed account N`` (in Arabic «حساب مغلق N»): nobody may
    pass for one."""
    user = User.objects.create_user("rami")
    with pytest.raises(ValidationError, match="closed accounts"):
        services.set_display_name(user, name)


@pytest.mark.parametrize("name", ["Closed Doors", "Account Manager", "حساب"])
def test_names_that_only_contain_the_words_are_accepted(db, name):
    user = User.objects.create_user("rami")
    assert services.set_display_name(user, name).display_name == name


@pytest.mark.parametrize(
    "name",
    [
        "نـور",  # a tatweel (U+0640) stretching the joint
        "نــــور",
        "نُور",  # a damma
        "نُورٌ",  # a damma and a dammatan
        "نوّر",  # a shadda
        "نٰور",  # a dagger alif
    ],
)
def test_arabic_marks_and_the_tatweel_do_not_make_another_name(django_user_model, name):
    """The tatweel (U+0640) only stretches the line between two letters and the harakat sit
    above or below them: «نـور» and «نُور» are drawn as «نور», so they are refused beside it
    (a trial's finding), while a hamza, which makes another letter, is kept («أبو» is not
    «ابو»)."""
    from accounts.names import name_key
    from accounts.services import check_display_name_free, set_display_name

    nour = django_user_model.objects.create_user("nour")
    set_display_name(user=nour, name="نور")
    with pytest.raises(ValidationError, match="looks like another player"):
        check_display_name_free(name)
    assert name_key("أبو فهد") != name_key("ابو فهد")
