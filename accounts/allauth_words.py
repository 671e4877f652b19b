"""django-allauth's strings whose Arabic in allauth's own catalog breaks the site's glossary
(``docs/i18n.md``): allauth calls signing up «الاشتراك», the word of the entry fee (رسم
الاشتراك). Listed here so that ``makemessages`` puts them in the site's catalog, which Django
searches before allauth's (``LOCALE_PATHS``), with the glossary's «إنشاء حساب»."""

from django.utils.translation import gettext_noop

ALLAUTH_WORDS = (
    gettext_noop("Sign Up"),
    gettext_noop("Signup"),
    gettext_noop("Sign Up Closed"),
    gettext_noop("We are sorry, but the sign up is currently closed."),
    gettext_noop(
        "If you have not created an account yet, then please %(link)ssign up%(end_link)s first."
    ),
)
