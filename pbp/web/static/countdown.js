// The deadline's countdown: the time left, each second, in every [data-countdown] element.
(function () {
  function tick() {
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var left = Math.floor((Date.parse(el.getAttribute("data-countdown")) - Date.now()) / 1000);
      if (isNaN(left)) { return; }
      if (left <= 0) { el.textContent = "(due: the round closes at the next poll)"; return; }
      var d = Math.floor(left / 86400), h = Math.floor(left % 86400 / 3600);
      var m = Math.floor(left % 3600 / 60), s = left % 60;
      el.textContent = "(" + (d ? d + "d " : "") + (d || h ? h + "h " : "") + m + "m " + s + "s left)";
    });
  }
  tick();
  setInterval(tick, 1000);
})();
