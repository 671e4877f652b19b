"""Arabic number formats: Django's own Arabic formats with Western separators.

Django's ``ar`` locale writes ``1.234,56`` (the Maghreb convention). The site writes numbers
and money with Western digits in both languages, as the Arabic card sites our players use do
and as CLDR's Arabic with Latin digits (``ar-u-nu-latn``, what the scripts' ``formatNumber``
uses) does: ``1,234.56``. See docs/i18n.md, "Numbers and money".
"""

from django.conf.locale.ar.formats import *  # noqa: F403

DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
