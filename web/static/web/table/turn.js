/* The table page's "your turn" signals: while the seat is to act the tab's title starts with
   "● Your turn" and the favicon gets a gold dot; an optional short beep (WebAudio, off by
   default, a toggle kept in localStorage); a browser notification when the tab is hidden
   (permission asked once, from the toggle's click: browsers ask only from a user gesture).
   An ES module of the table page (no build step): main.js starts it. */

import { gettext as _ } from "../i18n.js";
import { $, el, st } from "./state.js";

const SOUND_KEY = "trix.turn-sound";
const NOTIFY_KEY = "trix.turn-notify";
const baseTitle = document.title;
let baseIcon = null;
let wasMyTurn = false;
let audio = null;

function stored(key) {
  try {
    return localStorage.getItem(key) === "1";
  } catch (e) {
    return false;
  }
}

function store(key, on) {
  try {
    localStorage.setItem(key, on ? "1" : "0");
  } catch (e) {
    /* private mode: the toggle lasts for this page only */
  }
}

export function myTurn() {
  const v = st.view;
  return Boolean(v && st.mySeat !== null && st.mySeat !== undefined && v.phase !== "over" &&
    (v.to_act || []).includes(st.mySeat));
}

function iconLink() {
  return document.querySelector("link[rel=icon]");
}

/* The favicon with a dot: the site's icon drawn again with a gold circle in the corner. */
const TURN_ICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#154633"/>' +
  '<text x="14" y="23" font-size="20" text-anchor="middle" fill="#e0b341" font-family="sans-serif">♥</text>' +
  '<circle cx="25" cy="7" r="7" fill="#e0b341" stroke="#fff" stroke-width="2"/></svg>');

function beep() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 880;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.2);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.2);
    document.documentElement.dataset.beeps = String(Number(document.documentElement.dataset.beeps || 0) + 1);
  } catch (e) {
    /* no audio here: the title and icon still say it */
  }
}

function notify() {
  if (!("Notification" in window) || Notification.permission !== "granted" || !stored(NOTIFY_KEY)) return;
  if (document.visibilityState !== "hidden") return;
  try {
    const n = new Notification(_("Your turn"), { body: baseTitle, tag: "trix-turn", icon: TURN_ICON });
    n.onclick = () => { window.focus(); n.close(); };
  } catch (e) {
    /* some browsers allow notifications only from a service worker */
  }
}

/* Title, favicon, sound and notification from the state; called on every render. */
export function renderTurn() {
  const mine = myTurn();
  const link = iconLink();
  if (link && baseIcon === null) baseIcon = link.href;
  document.title = mine ? "● " + _("Your turn") + " · " + baseTitle : baseTitle;
  if (link) link.href = mine ? TURN_ICON : baseIcon;
  document.documentElement.dataset.myTurn = mine ? "1" : "0";
  if (mine && !wasMyTurn) {
    if (stored(SOUND_KEY)) beep();
    notify();
  }
  wasMyTurn = mine;
  renderToggles();
}

function renderToggles() {
  const box = $("#turn-signals");
  if (!box) return;
  box.hidden = st.mySeat === null || st.mySeat === undefined;
  if (box.hidden || box.childElementCount) return;
  const sound = el("input", { type: "checkbox", id: "turn-sound", "data-testid": "turn-sound" });
  sound.checked = stored(SOUND_KEY);
  sound.addEventListener("change", () => {
    store(SOUND_KEY, sound.checked);
    if (sound.checked) beep(); // a sample, and it unlocks audio from this gesture
  });
  const notifyBox = el("input", { type: "checkbox", id: "turn-notify", "data-testid": "turn-notify" });
  notifyBox.checked = stored(NOTIFY_KEY) && "Notification" in window && Notification.permission === "granted";
  notifyBox.disabled = !("Notification" in window) || Notification.permission === "denied";
  notifyBox.addEventListener("change", async () => {
    store(NOTIFY_KEY, notifyBox.checked);
    if (notifyBox.checked && Notification.permission === "default") {
      const answer = await Notification.requestPermission();
      notifyBox.checked = answer === "granted";
      notifyBox.disabled = answer === "denied";
      store(NOTIFY_KEY, notifyBox.checked);
    }
  });
  box.append(el("label", {}, sound, " " + _("Sound on my turn")),
    el("label", {}, notifyBox, " " + _("Notify me on my turn when this tab is hidden")));
}
