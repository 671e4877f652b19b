/* The tournament page: fills every empty client-seed field with 16 random bytes from
   crypto.getRandomValues (the player's own contribution to the seating draw). */
(function () {
  "use strict";
  for (const input of document.querySelectorAll("input.client-seed")) {
    if (!input.value) input.value = window.Trix.randomHex(16);
  }
})();
