/* An amount typed by a player -> integer minor units: the page's one reader of typed money,
   the same rule as the server's (wallet.forms.parse_amount, docs/i18n.md "Typed amounts"), both
   tested against tests/wallet/amount_vectors.json.

   TrixAmount.parse(text, decimals) -> {amount} (0 included) or {error}, the error one of
   "empty", "negative", "thousands", "comma", "decimals", "too_large", "invalid". No DOM: a
   classic script (window.TrixAmount) that node loads as it is. */
(function (root) {
  "use strict";
  /* wallet.inputs.MAX_AMOUNT: the most minor units one amount may be (10**12). */
  const MAX_AMOUNT = 1e12;
  /* Arabic-Indic and Extended Arabic-Indic digits and the Arabic decimal separator (U+066B). */
  const ARABIC = { "٫": "." };
  "٠١٢٣٤٥٦٧٨٩".split("").forEach((d, i) => (ARABIC[d] = String(i)));
  "۰۱۲۳۴۵۶۷۸۹".split("").forEach((d, i) => (ARABIC[d] = String(i)));
  /* A comma, the Arabic comma (U+060C) and the Arabic thousands separator (U+066C). */
  const COMMA = /[,،٬]/;
  const COMMAS = /[,،٬]/g;
  const AMOUNT = /^([0-9]+)(?:\.([0-9]*))?$/;
  const GROUPED = /^[1-9][0-9]{0,2}([.,،٬])[0-9]{3}(?:\1[0-9]{3})*$/;

  function parse(text, decimals) {
    const ascii = String(text === null || text === undefined ? "" : text)
      .trim()
      .replace(/[٠-٩۰-۹٫]/g, (c) => ARABIC[c]);
    if (!ascii) return { error: "empty" };
    if (ascii.startsWith("-")) return { error: "negative" };
    const grouped = ascii.match(GROUPED);
    if (grouped && (grouped[1] !== "." || decimals < 3)) return { error: "thousands" };
    if (COMMA.test(ascii) && AMOUNT.test(ascii.replace(COMMAS, "."))) return { error: "comma" };
    const m = ascii.match(AMOUNT);
    if (!m) return { error: "invalid" };
    const whole = m[1].replace(/^0+/, "");
    const frac = (m[2] || "").replace(/0+$/, "");
    if (frac.length > decimals) return { error: "decimals" };
    if (whole.length + decimals > String(MAX_AMOUNT).length) return { error: "too_large" };
    const amount =
      Number(whole || "0") * Math.pow(10, decimals) + (frac ? Number(frac.padEnd(decimals, "0")) : 0);
    if (amount > MAX_AMOUNT) return { error: "too_large" };
    return { amount };
  }

  root.TrixAmount = { parse, MAX_AMOUNT };
})(typeof window !== "undefined" ? window : globalThis);
