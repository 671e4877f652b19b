/* Sharing a link (an invite to a table): the browser's share sheet (the Web Share API) where
   it has one, else the clipboard; and the link as text that reads left to right inside
   right-to-left text (a bare URL in an Arabic line reads "/http://…").
   A module of the lobby and the table page; window.Trix from api.js. */

import { gettext as _ } from "./i18n.js";

/* Share `url` (with `text`); `status` (an element) says "Link copied." when it was copied
   instead, or asks to copy it by hand when neither works. */
export async function shareLink(url, status, text) {
  if (navigator.share) {
    try {
      await navigator.share({ title: document.title, text: text || "", url });
      return;
    } catch (err) {
      if (err.name === "AbortError") return; // the person closed the share sheet
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    status.textContent = _("Link copied.");
  } catch (err) {
    status.textContent = _("Copy the link above.");
  }
}

/* `url` as a link isolated left to right (<bdi dir="ltr">). */
export function linkEl(url, testid) {
  return window.Trix.el("bdi", { dir: "ltr", class: "share-link", "data-testid": testid || "share-url" },
    window.Trix.el("a", { href: url, dir: "ltr", text: url }));
}
