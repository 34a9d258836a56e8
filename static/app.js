// passk: progressive enhancement only. Every page works without this file.
"use strict";

(function () {
  // Copy buttons: <button class="copy" data-copy="text" hidden> are shown when the clipboard is there.
  function enableCopyButtons(root) {
    if (!navigator.clipboard) return;
    root.querySelectorAll("button.copy").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        var text = button.dataset.copy || document.getElementById(button.dataset.copyFrom).value;
        navigator.clipboard.writeText(text).then(function () {
          button.textContent = "Copied";
        });
      });
    });
  }

  // Live update of the single-problem calculator: ask the server for the same page and
  // swap in the result and the field messages, so there is only one rendering.
  function enableLiveUpdate(form) {
    var timer = null;
    var latest = 0;
    form.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(refresh, 250);
    });

    function refresh() {
      var params = new URLSearchParams(new FormData(form));
      if (!params.get("ks")) params.delete("ks");
      var url = form.getAttribute("action") + "?" + params.toString();
      var ticket = ++latest;
      fetch(url, { headers: { "Accept": "text/html" } })
        .then(function (response) { return response.text(); })
        .then(function (html) {
          if (ticket !== latest) return;  // a newer request is on its way
          swap(new DOMParser().parseFromString(html, "text/html"));
          history.replaceState(null, "", url);
        })
        .catch(function () { /* offline: the submit button still works */ });
    }

    function swap(page) {
      ["n", "c", "k", "ks"].forEach(function (name) {
        var fresh = page.getElementById(name + "-error");
        var shown = document.getElementById(name + "-error");
        var input = document.getElementById(name);
        if (!fresh || !shown || !input) return;
        shown.textContent = fresh.textContent;
        shown.hidden = fresh.hidden;
        input.closest(".field").classList.toggle("has-error", !fresh.hidden);
        if (fresh.hidden) input.removeAttribute("aria-invalid");
        else input.setAttribute("aria-invalid", "true");
      });
      var summary = document.getElementById("form-summary");
      if (summary) summary.remove();
      var freshResult = page.getElementById("result");
      var result = document.getElementById("result");
      if (freshResult && result) {
        result.replaceWith(freshResult);
        enableCopyButtons(freshResult);
      } else if (freshResult) {
        form.after(freshResult);
        enableCopyButtons(freshResult);
      } else if (result) {
        result.remove();
      }
      document.title = page.title;
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    enableCopyButtons(document);
    var form = document.getElementById("calculator");
    if (form && form.dataset.live !== "off") enableLiveUpdate(form);
  });
})();
