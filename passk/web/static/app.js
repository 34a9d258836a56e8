// passk: progressive enhancement only. Every page works without this file.
"use strict";

(function () {
  // Copy buttons: <button class="copy" hidden> with data-copy="the text" or data-copy-from="the id
  // of the element holding it", shown by this script. The clipboard API where the page may use it;
  // else the text is selected and copied the old way, or left selected for Ctrl+C. What happened is
  // said in a polite live region and, for two seconds, on the button.
  function copyStatus() {
    var status = document.getElementById("copy-status");
    if (!status) {
      status = document.createElement("p");
      status.id = "copy-status";
      status.className = "visually-hidden";
      status.setAttribute("role", "status");
      status.setAttribute("aria-live", "polite");
      document.body.appendChild(status);
    }
    return status;
  }

  function select(element) {
    if (element.select) {
      element.select();
      return;
    }
    var range = document.createRange();
    range.selectNodeContents(element);
    window.getSelection().removeAllRanges();
    window.getSelection().addRange(range);
  }

  // The text selected in `source` (or in a scratch box holding `text`), copied with execCommand.
  function copySelected(source, text) {
    var scratch = null;
    if (!source) {
      scratch = source = document.createElement("textarea");
      scratch.value = text;
      scratch.setAttribute("readonly", "");
      scratch.className = "visually-hidden";
      document.body.appendChild(scratch);
    }
    select(source);
    var copied = false;
    try {
      copied = document.execCommand("copy");
    } catch (error) { /* not allowed here: the text stays selected */ }
    if (scratch) scratch.remove();
    return copied;
  }

  function enableCopyButtons(root) {
    copyStatus();
    root.querySelectorAll("button.copy").forEach(function (button) {
      var label = button.textContent;
      var timer = null;
      button.hidden = false;
      button.addEventListener("click", function () {
        var source = button.dataset.copyFrom ? document.getElementById(button.dataset.copyFrom) : null;
        var text = !source ? button.dataset.copy :
          /^(TEXTAREA|INPUT)$/.test(source.tagName) ? source.value : source.textContent;
        var what = label.replace(/^Copy /, "");
        function said(copied) {
          copyStatus().textContent = copied ? "Copied " + what :
            (source ? "Selected; press Ctrl+C to copy the " : "Could not copy the ") + what;
          button.textContent = copied ? "Copied" : label;
          clearTimeout(timer);
          timer = setTimeout(function () { button.textContent = label; }, 2000);
        }
        if (navigator.clipboard && navigator.clipboard.writeText) {
          navigator.clipboard.writeText(text).then(function () { said(true); },
            function () { said(copySelected(source, text)); });
        } else {
          said(copySelected(source, text));
        }
      });
    });
  }

  // In an iframe, /embed tells the page around it how tall it is, {type: "passk:height", height},
  // so that the page's few lines of script (docs/embed.md) size the frame to fit: once now, on
  // load, and whenever the height changes (a new result, a narrower frame).
  function reportEmbedHeight() {
    if (window.parent === window || !document.body.classList.contains("embed")) return;
    function send() {
      var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
      window.parent.postMessage({ type: "passk:height", height: height }, "*");
    }
    send();
    window.addEventListener("load", send);
    if (window.ResizeObserver) {
      new ResizeObserver(send).observe(document.documentElement);
    } else {
      window.addEventListener("resize", send);
      new MutationObserver(send).observe(document.body, { childList: true, subtree: true, characterData: true });
    }
  }

  // The page around the frame sets its theme, {type: "passk:theme", theme: "dark" | "light"}, as the
  // snippet's script does when the docs site switches its own: the class ?theme= would give <html>.
  // Only that page may: the message must come from the parent window and from the origin of the page
  // that loaded the frame (document.referrer; remembered for the frame's own reloads by Calculate,
  // whose referrer passk never sends). The form keeps the theme for those reloads.
  function followEmbedderTheme() {
    if (window.parent === window || !document.body.classList.contains("embed")) return;
    var embedder = embedderOrigin();
    window.addEventListener("message", function (event) {
      var theme = event.data && event.data.type === "passk:theme" ? event.data.theme : null;
      if (!embedder || event.source !== window.parent || event.origin !== embedder) return;
      if (theme !== "dark" && theme !== "light") return;
      var root = document.documentElement;
      root.classList.remove("theme-dark", "theme-light");
      root.classList.add("theme-" + theme);
      document.querySelector('meta[name="color-scheme"]').content = theme;
      var kept = document.querySelector('input[name="theme"]');
      if (!kept) {
        kept = document.createElement("input");
        kept.type = "hidden";
        kept.name = "theme";
        kept.setAttribute("form", "calculator");
        document.body.appendChild(kept);
      }
      kept.value = theme;
    });
  }

  function embedderOrigin() {
    var origin = "";
    try {
      origin = document.referrer ? new URL(document.referrer).origin : "";
    } catch (error) { /* no address to read */ }
    try {
      if (origin && origin !== location.origin) sessionStorage.setItem("passk:embedder", origin);
      origin = sessionStorage.getItem("passk:embedder") || "";
    } catch (error) { /* no storage for this frame: only the first page follows the site */ }
    return origin === "null" ? "" : origin;
  }

  // Live update of the single-problem calculator: ask the server for the same page and
  // swap in the result, so there is one rendering and one set of rules. While the fields
  // do not hold a calculation (half typed, c > n, ...) the last result stays, dimmed, under
  // a note that says what is wrong in the server's own words; the fields' alerts wait for
  // a submit, so that typing 2 on the way to 200 sets off no alarm. On a page sent with
  // errors (no result to keep) the fields' messages change as the user types.
  function withoutEmptyExtras(data) {
    if (data.has("ks") && !String(data.get("ks")).trim()) data.delete("ks");
    return data;
  }

  function problemsIn(page) {
    return Array.prototype.map.call(page.querySelectorAll(".field-error:not([hidden])"), function (error) {
      return error.textContent.trim();
    }).filter(Boolean);
  }

  function enableLiveUpdate(form) {
    var timer = null;
    var latest = 0;
    var status = document.getElementById("live-status");
    form.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(refresh, 250);
    });
    // A submitted form leaves out an empty "Extra k values", so the address is the share link's.
    form.addEventListener("formdata", function (event) { withoutEmptyExtras(event.formData); });

    function refresh() {
      var params = new URLSearchParams(withoutEmptyExtras(new FormData(form)));
      var url = form.getAttribute("action") + "?" + params.toString();
      var ticket = ++latest;
      fetch(url, { headers: { "Accept": "text/html" } })
        .then(function (response) {
          return response.text().then(function (html) {
            return { ok: response.ok, url: response.url, html: html };
          });
        })
        .then(function (answer) {
          if (ticket !== latest) return;  // a newer request is on its way
          var page = new DOMParser().parseFromString(answer.html, "text/html");
          if (answer.ok) {
            showMessages(page);
            swapResult(page);
            markStale(null);
            history.replaceState(null, "", answer.url || url);  // the server's clean address
          } else if (document.getElementById("result")) {
            markStale(problemsIn(page));
          } else {
            showMessages(page);
          }
        })
        .catch(function () { /* offline: the submit button still works */ });
    }

    // problems: the server's sentences for what is wrong now, [] for an answer without any,
    // null when the result is up to date again.
    function markStale(problems) {
      var result = document.getElementById("result");
      if (!result) return;
      result.classList.toggle("stale", problems !== null);
      var note = result.querySelector(".stale-note");
      if (problems === null) {
        if (note) note.remove();
        return;
      }
      if (!note) {
        note = document.createElement("p");
        note.className = "stale-note";
        result.prepend(note);
      }
      var said = problems.length ? problems.join(" ") :
        "The server answered without a result; press Calculate to try again.";
      note.textContent = "Not updated: " + said + " The result below is for the last numbers that made one.";
      if (status) status.textContent = said;
    }

    function showMessages(page) {
      ["n", "c", "k", "ks"].forEach(function (name) {
        var fresh = page.getElementById(name + "-error");
        var shown = document.getElementById(name + "-error");
        var input = document.getElementById(name);
        if (!fresh || !shown || !input || !input.closest(".field")) return;
        shown.textContent = fresh.textContent;
        shown.hidden = fresh.hidden;
        input.closest(".field").classList.toggle("has-error", !fresh.hidden);
        if (fresh.hidden) input.removeAttribute("aria-invalid");
        else input.setAttribute("aria-invalid", "true");
      });
      var summary = document.getElementById("form-summary");
      if (summary) summary.remove();
    }

    function swapResult(page) {
      var freshResult = page.getElementById("result");
      var result = document.getElementById("result");
      if (!freshResult) return;
      if (result) result.replaceWith(freshResult);
      else form.after(freshResult);
      enableCopyButtons(freshResult);
      document.title = page.title;
      if (status) status.textContent = page.title.replace(/ — passk$/, "");
    }
  }

  // Sortable tables: header cells with data-sort="number" or "text" become buttons.
  function enableSorting(root) {
    root.querySelectorAll("table.sortable").forEach(function (table) {
      var headers = table.querySelectorAll("thead th[data-sort]");
      headers.forEach(function (header, column) {
        var button = document.createElement("button");
        button.type = "button";
        var arrow = document.createElement("span");
        arrow.className = "sort-arrow";
        arrow.setAttribute("aria-hidden", "true");
        button.textContent = header.textContent;
        button.appendChild(arrow);
        header.textContent = "";
        header.appendChild(button);
        button.addEventListener("click", function () {
          var ascending = header.getAttribute("aria-sort") !== "ascending";
          headers.forEach(function (other) {
            other.removeAttribute("aria-sort");
            other.querySelector(".sort-arrow").textContent = "";
          });
          header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
          arrow.textContent = ascending ? " ▲" : " ▼";
          sortRows(table, column, header.dataset.sort === "number", ascending);
        });
      });
    });
  }

  function sortRows(table, column, numeric, ascending) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    function key(row) {
      var cell = row.cells[column];
      var text = cell.dataset.value !== undefined ? cell.dataset.value : cell.textContent;
      return numeric ? parseFloat(text) : text.toLowerCase();
    }
    rows.sort(function (a, b) {
      var x = key(a), y = key(b);
      var order = numeric ? x - y : x.localeCompare(y, undefined, { numeric: true });
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }

  // Upload with a progress bar: send the form with XMLHttpRequest and show the answer in place.
  function enableUploadProgress(form) {
    var progress = document.getElementById("upload-progress");
    var status = document.getElementById("upload-status");
    form.addEventListener("submit", function (event) {
      var file = form.querySelector("input[type=file]");
      if (!file || !file.files.length || !window.FormData) return;  // plain submit
      event.preventDefault();
      var limit = Number(form.dataset.maxBytes);
      var total = 0;
      for (var i = 0; i < file.files.length; i++) total += file.files[i].size;
      if (limit && total > limit) {
        status.textContent = (file.files.length > 1 ? "These files are " : "This file is ") +
          Math.ceil(total / 1048576) + " MiB, over the " + Math.floor(limit / 1048576) +
          " MiB limit: send counts per problem instead, or split the run.";
        status.setAttribute("role", "alert");
        return;
      }
      var request = new XMLHttpRequest();
      request.open("POST", form.action);
      progress.hidden = false;
      request.upload.addEventListener("progress", function (e) {
        if (!e.lengthComputable) return;
        var share = Math.round(100 * e.loaded / e.total);
        progress.value = share;
        progress.textContent = share + "%";
        status.textContent = share < 100 ? "Uploading… " + share + "%" : "Computing…";
      });
      request.addEventListener("load", function () {
        var page = new DOMParser().parseFromString(request.responseText, "text/html");
        var answer = page.getElementById("main");
        if (!answer) {  // not one of our pages: a proxy's error, say
          status.textContent = "The server answered " + request.status + " without a result; try again.";
          progress.hidden = true;
          return;
        }
        var main = document.getElementById("main");
        main.replaceChildren.apply(main, Array.prototype.slice.call(answer.childNodes));
        document.title = page.title;
        initialise(main);
        showAnswer(main);
      });
      request.addEventListener("error", function () {
        status.textContent = "The upload failed; check the connection and try again.";
        progress.hidden = true;
      });
      request.send(new FormData(form));
    });
  }

  // After a form is sent, the answer (or the error) is where the reader looks: focused, which scrolls it into view.
  function showAnswer(root) {
    var heading = root.querySelector("[role=alert], #benchmark-heading, #compare-heading, #ranking-heading");
    if (heading) {
      if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
      heading.focus();
    }
  }

  function initialise(root) {
    enableCopyButtons(root);
    enableSorting(root);
    var upload = root.querySelector("#benchmark-form");
    if (upload) enableUploadProgress(upload);
  }

  document.addEventListener("DOMContentLoaded", function () {
    initialise(document);
    if (document.querySelector("#benchmark-form, #compare-form")) showAnswer(document);   // a page that answers a form
    reportEmbedHeight();
    followEmbedderTheme();
    var form = document.getElementById("calculator");
    if (form && form.dataset.live !== "off") enableLiveUpdate(form);
  });
})();
