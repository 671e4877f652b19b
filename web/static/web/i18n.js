/* The scripts' translations: Django's JavaScriptCatalog (/jsi18n/, loaded by base.html as a
   classic script before any module) defines window.django with gettext, ngettext, interpolate
   and the active language's formats. Every script imports its words from here, never from
   window directly, so a page without the catalog still shows English:
     import { gettext as _, ngettext, interpolate, language } from "../i18n.js"
     _("Your turn");  interpolate(ngettext("%s card", "%s cards", n), [n]);
   Numbers and money are formatted for the page's language with Intl (formatNumber). */

const catalog = globalThis.django;

export const gettext = catalog ? (text) => catalog.gettext(text) : (text) => text;
export const ngettext = catalog
  ? (singular, plural, count) => catalog.ngettext(singular, plural, count)
  : (singular, plural, count) => (count === 1 ? singular : plural);
export const pgettext = catalog ? (context, text) => catalog.pgettext(context, text) : (_c, text) => text;
export const interpolate = catalog
  ? (format, values, named = false) => catalog.interpolate(format, values, named)
  : (format, values, named = false) =>
      named
        ? format.replace(/%\((\w+)\)s/g, (_m, key) => String(values[key]))
        : format.replace(/%s/g, () => String(values.shift()));

/** The page's language (<html lang>), e.g. "ar" or "en". */
export const language = document.documentElement.lang || "en";

/** A number written for the page's language (Arabic-Indic digits in Arabic, etc.). */
export function formatNumber(value, options = {}) {
  return new Intl.NumberFormat(language, options).format(value);
}
