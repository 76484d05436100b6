// The control panel: PIN login, then JSON requests to /api/control/<action>.
// The session lives in an HttpOnly cookie; this script never sees it.
"use strict";

(() => {
  const { t } = NARDY;
  const $ = (id) => document.getElementById(id);
  const toast = $("toast");
  let corners = [];
  let frameSize = { width: 0, height: 0 };

  function say(text, isError) {
    toast.textContent = text;
    toast.className = "toast show" + (isError ? " error" : "");
    clearTimeout(say.timer);
    say.timer = setTimeout(() => { toast.className = "toast"; }, 6000);
  }

  function explain(status, body) {
    if (body && body.code === "bad_pin") return t("err_bad_pin");
    if (body && body.code === "no_pin") return t("err_no_pin");
    if (status === 401) return t("err_auth");
    if (status === 429) return t("err_throttled", { s: body.error.match(/\d+/) || "?" });
    return (body && body.error) || "HTTP " + status;
  }

  async function post(url, data) {
    let response;
    try {
      response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(data || {}),
        credentials: "same-origin",
      });
    } catch (err) {
      say(t("err_network"), true);
      return null;
    }
    const body = await response.json().catch(() => null);
    if (response.status === 401 && url !== "/api/login") showLogin();
    if (!response.ok) {
      say(explain(response.status, body), true);
      return null;
    }
    return body;
  }

  async function control(action, data) {
    const result = await post("/api/control/" + action, data);
    if (result) { say(t("done"), false); await fillPosition(); }
    return result;
  }

  // --- login ---------------------------------------------------------------------------
  function showLogin() { $("login").hidden = false; $("panel").hidden = true; }
  function showPanel() { $("login").hidden = true; $("panel").hidden = false; }

  async function checkSession() {
    const response = await fetch("/api/session", { cache: "no-store" });
    const session = await response.json();
    if (session.authenticated) {
      showPanel();
      await fillPosition();
      await loadCalibration();
    } else {
      showLogin();
      $("locked").hidden = session.enabled;
    }
  }

  $("login-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const result = await post("/api/login", { pin: $("pin").value });
    $("pin").value = "";
    if (result) await checkSession();
  });

  $("logout").addEventListener("click", async () => {
    await post("/api/logout", {});
    showLogin();
  });

  // --- actions -------------------------------------------------------------------------
  for (const button of document.querySelectorAll("[data-cube]")) {
    button.addEventListener("click", () => control("cube", { action: button.dataset.cube }));
  }
  $("undo").addEventListener("click", () => control("undo", {}));

  $("new-match").addEventListener("submit", (event) => {
    event.preventDefault();
    const f = event.target.elements;
    control("new_match", {
      variant: f.variant.value,
      match_length: Number(f.match_length.value),
      white_name: f.white_name.value,
      black_name: f.black_name.value,
      jacoby: f.jacoby.checked,
      settings: { hit_and_hide_bear_off: f.hit_and_hide_bear_off.value },
    });
  });

  $("correct").addEventListener("submit", (event) => {
    event.preventDefault();
    const f = event.target.elements;
    control("correct_position", {
      board: f.board.value.trim(),
      turn: f.turn.value,
      off_white: Number(f.off_white.value),
      off_black: Number(f.off_black.value),
    });
  });

  async function fillPosition() {
    const response = await fetch("/api/state", { cache: "no-store" });
    const state = (await response.json()).state;
    const f = $("correct").elements;
    f.board.value = state.board;
    if (state.turn) f.turn.value = state.turn;
    f.off_white.value = state.white.borne_off;
    f.off_black.value = state.black.borne_off;
  }

  // --- calibration ---------------------------------------------------------------------
  function drawCorners() {
    const overlay = $("frame-overlay");
    overlay.setAttribute("viewBox", `0 0 ${frameSize.width || 1} ${frameSize.height || 1}`);
    overlay.replaceChildren();
    const ns = "http://www.w3.org/2000/svg";
    if (corners.length === 4) {
      const poly = document.createElementNS(ns, "polygon");
      poly.setAttribute("points", corners.map((c) => c.join(",")).join(" "));
      poly.setAttribute("class", "quad");
      overlay.append(poly);
    }
    corners.forEach((c, i) => {
      const dot = document.createElementNS(ns, "circle");
      dot.setAttribute("cx", c[0]);
      dot.setAttribute("cy", c[1]);
      dot.setAttribute("r", Math.max(frameSize.width, 100) / 80);
      dot.setAttribute("class", "corner");
      overlay.append(dot);
      $("corner-" + i).textContent = `(${Math.round(c[0])}, ${Math.round(c[1])})`;
    });
  }

  async function loadCalibration() {
    const response = await fetch("/api/calibration", { cache: "no-store" });
    if (!response.ok) return;
    const view = await response.json();
    frameSize = { width: view.width, height: view.height };
    corners = view.corners.length === 4 ? view.corners : [[0, 0], [view.width, 0], [view.width, view.height], [0, view.height]];
    $("frame").src = view.has_frame ? "/api/calibration/frame.jpg?t=" + Date.now() : "";
    drawCorners();
  }

  $("frame-overlay").addEventListener("click", (event) => {
    const box = event.currentTarget.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * frameSize.width;
    const y = ((event.clientY - box.top) / box.height) * frameSize.height;
    const index = Number(document.querySelector("input[name=corner]:checked").value);
    corners[index] = [Math.round(x * 10) / 10, Math.round(y * 10) / 10];
    drawCorners();
  });
  $("reload-frame").addEventListener("click", loadCalibration);
  $("save-corners").addEventListener("click", () => control("calibrate", { corners }));

  checkSession();
})();
