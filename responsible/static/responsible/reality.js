/* The reality check at a table: every minute the page asks
   /api/responsible/reality-check/; when a new notice is due (one per full interval of
   continuous play at staked tables, the player's setting) it shows the server's message (time
   played, net result; already in the page's language) until dismissed. Dismissed notices are
   remembered for the session in sessionStorage, by the play's start and the notice's number. */
(function () {
  "use strict";
  const box = document.getElementById("reality-check");
  if (!box || box.dataset.url === undefined) return;
  const text = box.querySelector("[data-reality-text]");
  const dismiss = box.querySelector("button");
  const POLL_MS = 60 * 1000;
  let current = null;

  function key(check) {
    return "trix-reality:" + check.started_at;
  }

  async function poll() {
    let check;
    try {
      const res = await fetch(box.dataset.url, {
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
      if (res.status === 401 || res.status === 403) return; // not logged in: stop asking
      if (!res.ok) throw new Error(String(res.status));
      check = await res.json();
    } catch (err) {
      setTimeout(poll, POLL_MS);
      return;
    }
    const seen = Number(sessionStorage.getItem(key(check)) || 0);
    if (check.playing && check.due > seen && check.message) {
      current = check;
      text.textContent = check.message;
      box.hidden = false;
    }
    box.dataset.checked = String(check.due); // answered (the tests wait for it)
    setTimeout(poll, POLL_MS);
  }

  dismiss.addEventListener("click", () => {
    if (current) sessionStorage.setItem(key(current), String(current.due));
    box.hidden = true;
  });
  poll();
})();
