// The control panel: PIN login, then JSON requests to /api/control/<action>.
// The session lives in an HttpOnly cookie; this script never sees it. Whatever changes the
// match is confirmed first, saying exactly what will change; buttons that cannot act now
// are disabled and say why; notices sit under the section they are about.
"use strict";

(() => {
  const { t, has, el, lang, playerName, cubeChoices } = NARDY;
  const $ = (id) => document.getElementById(id);
  const variants = JSON.parse($("variants").textContent);
  let payload = null;  // the newest snapshot payload (state + move rows)

  // --- notices and refusals -------------------------------------------------------------
  function notice(id, text, isError) {
    const box = $(id);
    box.textContent = text;
    box.classList.toggle("error", Boolean(isError));
  }

  // Refusal params in the page's language: sides, phases.
  function localParams(params) {
    const out = {};
    for (const [name, value] of Object.entries(params || {})) {
      out[name] = typeof value === "string" && has("phase_" + value) ? t("phase_" + value) : value;
    }
    return out;
  }

  function explain(status, body) {
    if (body && body.key && has(body.key)) return t(body.key, localParams(body.params));
    if (body && body.code === "bad_pin") return t("err_bad_pin");
    if (body && body.code === "no_pin") return t("err_no_pin");
    if (status === 401) return t("err_auth");
    if (status === 429) return t("err_throttled", { s: ((body && body.error) || "").match(/\d+/) || "?" });
    if (lang === "en" && body && body.error) return body.error;
    return t("refusal.generic");
  }

  // {ok, status, body}; a network failure is status 0.
  async function send(url, data) {
    try {
      const response = await fetch(url, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify(data || {}),
        credentials: "same-origin",
      });
      const body = await response.json().catch(() => null);
      if (response.status === 401 && url !== "/api/login") showLogin();
      return { ok: response.ok, status: response.status, body };
    } catch (err) {
      return { ok: false, status: 0, body: null };
    }
  }

  async function post(url, data, noticeId) {
    const reply = await send(url, data);
    if (reply.status === 0) notice(noticeId, t("err_network"), true);
    else if (!reply.ok) notice(noticeId, explain(reply.status, reply.body), true);
    return reply.ok ? reply.body || {} : null;
  }

  async function control(action, data, noticeId) {
    notice(noticeId, "");
    const result = await post("/api/control/" + action, data, noticeId);
    if (result) {
      notice(noticeId, t("done"), false);
      await refresh();
    }
    return result;
  }

  // Asks before acting; resolves true on Confirm.
  function confirmAction(title, lines) {
    const dialog = $("confirm");
    $("confirm-title").textContent = title;
    $("confirm-text").replaceChildren(...lines.map((line) => el("p", "", line)));
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "ok"), { once: true });
      dialog.returnValue = "";
      dialog.showModal();
    });
  }

  // --- the current match ----------------------------------------------------------------
  const variantOf = (name) => variants.find((v) => v.name === name) || { name, title: name, checkers: 15 };
  const lengthText = (n) => (n ? t("length_match", { n }) : t("length_money"));

  function scoreLine(state) {
    return t("score_line", { white: playerName(state, "white"), w: state.white.score,
                             b: state.black.score, black: playerName(state, "black") });
  }

  function renderNow() {
    const state = payload.state;
    $("now-settings").textContent = t("settings_line", {
      variant: variantOf(state.variant).title, length: lengthText(state.match_length),
      white: playerName(state, "white"), black: playerName(state, "black"),
    });
    $("now-score").textContent = scoreLine(state);
    const game = [t("game_n", { n: state.game_number }), t("phase_" + state.phase)];
    if (state.crawford) game.push(t("crawford_note"));
    $("now-game").textContent = game.join(" · ");
    $("now-rules").textContent = rulesLine(state.settings || {}, state.match_length);
    if (!formTouched) fillNewMatch(state);
    const choices = cubeChoices(state);
    for (const button of document.querySelectorAll("[data-cube]")) {
      const choice = choices[button.dataset.cube];
      button.textContent = choice.label;
      button.disabled = !choice.ok;
      document.querySelector(`[data-why=${button.dataset.cube}]`).textContent = choice.ok ? "" : choice.why;
    }
    const last = lastMove();
    $("undo").disabled = !last;
    $("undo-why").textContent = last ? "" : t("confirm_undo_nothing");
    calibrationHints();
  }

  // The rules in force, in words: cube, Crawford or Jacoby, the move timer.
  function rulesLine(settings, length) {
    const parts = [t(settings.cube === false ? "rules_no_cube" : "rules_cube")];
    if (length && settings.crawford !== false) parts.push(t("crawford"));
    if (!length && settings.jacoby) parts.push(t("jacoby_short"));
    if (settings.move_seconds) {
      parts.push(t("clock_rule", { s: Math.round(settings.move_seconds),
                                   outcome: t(settings.timeout_loses ? "timeout_loss" : "timeout_warn") }));
    }
    return parts.join(" · ");
  }

  // The new-match form starts from the match being played, so only what differs is typed.
  let formTouched = false;
  $("new-match").addEventListener("input", () => { formTouched = true; });
  function fillNewMatch(state) {
    const f = $("new-match").elements;
    const settings = state.settings || {};
    f.variant.value = state.variant;
    f.match_length.value = state.match_length;
    f.white_name.value = playerName(state, "white");
    f.black_name.value = playerName(state, "black");
    f.cube.checked = settings.cube !== false;
    f.jacoby.checked = Boolean(settings.jacoby);
    f.move_seconds.value = settings.move_seconds ? Math.round(settings.move_seconds) : 0;
    f.timeout_loses.checked = Boolean(settings.timeout_loses);
  }

  function lastMove() {
    const rows = payload ? payload.move_rows : [];
    return rows.length ? rows[rows.length - 1] : null;
  }

  async function refresh() {
    const response = await fetch("/api/state", { cache: "no-store" });
    if (!response.ok) return;
    show(await response.json());
  }

  function show(next) {
    const changedGame = !payload || payload.state.board !== next.state.board ||
      payload.state.white.borne_off !== next.state.white.borne_off ||
      payload.state.black.borne_off !== next.state.black.borne_off;
    payload = next;
    renderNow();
    if (changedGame && !editing) loadEdit();
  }

  function live() {
    if (!window.EventSource) { setInterval(refresh, 3000); return; }
    const source = new EventSource("/api/events");
    source.addEventListener("state", (event) => show(JSON.parse(event.data)));
  }

  // --- login ----------------------------------------------------------------------------
  function showLogin() { $("login").hidden = false; $("panel").hidden = true; }
  function showPanel() { $("login").hidden = true; $("panel").hidden = false; }

  async function checkSession() {
    const response = await fetch("/api/session", { cache: "no-store" });
    const session = await response.json();
    if (session.authenticated) {
      showPanel();
      await refresh();
      live();
      await loadCalibration();
    } else {
      showLogin();
      $("locked").hidden = session.enabled;
    }
  }

  $("login-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    notice("login-notice", "");
    const result = await post("/api/login", { pin: $("pin").value }, "login-notice");
    $("pin").value = "";
    if (result) await checkSession();
  });

  $("logout").addEventListener("click", async () => {
    await post("/api/logout", {}, "login-notice");
    showLogin();
  });

  // --- cube and undo --------------------------------------------------------------------
  for (const button of document.querySelectorAll("[data-cube]")) {
    button.addEventListener("click", () => control("cube", { action: button.dataset.cube }, "cube-notice"));
  }

  $("undo").addEventListener("click", async () => {
    const last = lastMove();
    if (!last) return;
    const move = (last.dice.length ? last.dice.slice(0, 2).join("") : "");
    const text = t("confirm_undo_move", { side: playerName(payload.state, last.side), dice: move, move: last[lang] || last.en });
    if (await confirmAction(t("confirm_undo"), [text])) control("undo", {}, "cube-notice");
  });

  // --- new match ------------------------------------------------------------------------
  $("new-match").addEventListener("submit", async (event) => {
    event.preventDefault();
    const f = event.target.elements;
    const data = {
      variant: f.variant.value,
      match_length: Number(f.match_length.value),
      white_name: f.white_name.value.trim() || t("white"),
      black_name: f.black_name.value.trim() || t("black"),
      jacoby: f.jacoby.checked && Number(f.match_length.value) === 0,
      settings: {
        hit_and_hide_bear_off: f.hit_and_hide_bear_off.value,
        cube: f.cube.checked,
        move_seconds: Number(f.move_seconds.value) > 0 ? Number(f.move_seconds.value) : null,
        timeout_loses: f.timeout_loses.checked,
      },
    };
    const state = payload.state;
    const played = state.moves.length || state.white.score || state.black.score || state.game_number > 1;
    const lines = [
      played
        ? t("confirm_new_match_loses", { white: playerName(state, "white"), w: state.white.score,
                                          b: state.black.score, black: playerName(state, "black"), n: state.game_number })
        : t("confirm_new_match_fresh"),
      t("confirm_new_match_will", { variant: variantOf(data.variant).title, length: lengthText(data.match_length),
                                    white: data.white_name, black: data.black_name }),
    ];
    lines.push(rulesLine(data.settings, data.match_length));
    if (await confirmAction(t("confirm_new_match"), lines)) {
      if (await control("new_match", data, "match-notice")) formTouched = false;
    }
  });

  // --- correcting the position by tapping the board -----------------------------------
  let edit = null;  // {points: [24], bar: {white, black}, off: {white, black}}
  let editing = false;  // the user has changed something not yet sent

  const FIELD = "-ABCDEFGHIJKLMNOP";
  function boardField() {
    const enc = (n) => (n >= 0 ? FIELD[n] : FIELD[-n].toLowerCase());
    return enc(-edit.bar.black) + edit.points.map(enc).join("") + enc(edit.bar.white);
  }

  function loadEdit() {
    const state = payload.state;
    edit = {
      points: [...state.points],
      bar: { white: state.white.on_bar, black: state.black.on_bar },
      off: { white: state.white.borne_off, black: state.black.borne_off },
    };
    editing = false;
    if (state.turn) $("correct").elements.turn.value = state.turn;
    drawEdit();
  }

  function totals() {
    const on = (sign) => edit.points.reduce((sum, n) => sum + (Math.sign(n) === sign ? Math.abs(n) : 0), 0);
    return {
      white: on(1) + edit.bar.white + edit.off.white,
      black: on(-1) + edit.bar.black + edit.off.black,
    };
  }

  async function drawEdit() {
    const need = variantOf(payload.state.variant).checkers;
    const sums = totals();
    const counts = $("counts");
    counts.replaceChildren();
    for (const side of ["white", "black"]) {
      const item = el("span", sums[side] === need ? "good" : "bad",
                      t("count_line", { side: t(side), n: sums[side], total: need }));
      item.dataset.side = side;
      item.dataset.count = sums[side];
      counts.append(item);
    }
    const ok = sums.white === need && sums.black === need;
    $("apply-correct").disabled = !ok;
    if (!ok) notice("correct-notice", t("count_bad", { total: need }), true);
    else if ($("correct-notice").classList.contains("error")) notice("correct-notice", "");
    const query = new URLSearchParams({ board: boardField(), off_white: edit.off.white, off_black: edit.off.black });
    const response = await fetch("/board.svg?" + query, { cache: "no-store" });
    if (response.ok) $("edit-board").innerHTML = await response.text();  // server-drawn
    $("edit-board").dataset.board = boardField();
  }

  function tap(target) {
    const tool = document.querySelector("input[name=tool]:checked").value;
    const [action, side] = tool.split("_");
    const step = action === "add" ? 1 : -1;
    const sign = side === "white" ? 1 : -1;
    if (target.startsWith("bar-") || target.startsWith("off-")) {
      const box = target.startsWith("bar-") ? edit.bar : edit.off;
      box[side] = Math.max(0, Math.min(15, box[side] + step));
    } else {
      const i = Number(target) - 1;
      const n = edit.points[i];
      if (n !== 0 && Math.sign(n) !== sign) {
        notice("correct-notice", t("point_taken", { p: target }), true);
        return;
      }
      edit.points[i] = sign * Math.max(0, Math.min(15, Math.abs(n) + step));
    }
    editing = true;
    notice("correct-notice", "");
    drawEdit();
  }

  $("edit-board").addEventListener("click", (event) => {
    const hit = event.target.closest("[data-point]");
    if (hit) tap(hit.dataset.point);
  });
  $("reset-edit").addEventListener("click", () => { notice("correct-notice", ""); loadEdit(); });

  $("correct").addEventListener("submit", async (event) => {
    event.preventDefault();
    const result = await control("correct_position", {
      board: boardField(),
      turn: event.target.elements.turn.value,
      off_white: edit.off.white,
      off_black: edit.off.black,
    }, "correct-notice");
    if (result) { editing = false; loadEdit(); }
  });

  // --- calibration wizard ---------------------------------------------------------------
  const CORNERS = ["corner_top_left", "corner_top_right", "corner_bottom_right", "corner_bottom_left"];
  let corners = [];
  let frameSize = { width: 0, height: 0 };

  function calibrationHints() {
    const next = corners.findIndex((c) => !c);
    $("cal-corner-hint").textContent = corners.length === 4 && next < 0
      ? t("cal_all_tapped") : t("cal_tap_next", { corner: t(CORNERS[Math.max(0, next)]) });
    $("cal-position").textContent = t("cal_start_position", { variant: variantOf(payload.state.variant).title });
  }

  function drawCorners() {
    const overlay = $("frame-overlay");
    overlay.setAttribute("viewBox", `0 0 ${frameSize.width || 1} ${frameSize.height || 1}`);
    overlay.replaceChildren();
    const ns = "http://www.w3.org/2000/svg";
    const set = corners.filter(Boolean);
    if (set.length === 4) {
      const poly = document.createElementNS(ns, "polygon");
      poly.setAttribute("points", corners.map((c) => c.join(",")).join(" "));
      poly.setAttribute("class", "quad");
      overlay.append(poly);
    }
    corners.forEach((c, i) => {
      $("corner-" + i).textContent = c ? `(${Math.round(c[0])}, ${Math.round(c[1])})` : "";
      if (!c) return;
      const dot = document.createElementNS(ns, "circle");
      dot.setAttribute("cx", c[0]);
      dot.setAttribute("cy", c[1]);
      dot.setAttribute("r", Math.max(frameSize.width, 100) / 80);
      dot.setAttribute("class", "corner");
      overlay.append(dot);
    });
    if (payload) calibrationHints();
  }

  async function loadCalibration() {
    const response = await fetch("/api/calibration", { cache: "no-store" });
    if (!response.ok) return;
    const view = await response.json();
    frameSize = { width: view.width, height: view.height };
    corners = view.corners.length === 4 ? view.corners : [null, null, null, null];
    $("frame").src = view.has_frame ? "/api/calibration/frame.jpg?t=" + Date.now() : "";
    if (!view.has_frame) notice("cal-notice", t("calibration.no_frame"), true);
    drawCorners();
  }

  $("frame-overlay").addEventListener("click", (event) => {
    const box = event.currentTarget.getBoundingClientRect();
    const x = ((event.clientX - box.left) / box.width) * frameSize.width;
    const y = ((event.clientY - box.top) / box.height) * frameSize.height;
    const picked = document.querySelector("input[name=corner]:checked");
    const index = Number(picked.value);
    corners[index] = [Math.round(x * 10) / 10, Math.round(y * 10) / 10];
    // The next corner to tap is picked for the user: four taps in order are enough.
    const next = document.querySelector(`input[name=corner][value="${(index + 1) % 4}"]`);
    if (next) next.checked = true;
    drawCorners();
  });
  $("reload-frame").addEventListener("click", loadCalibration);
  // The live frame: a fresh picture every few seconds while the panel is open and seen.
  setInterval(() => {
    if (document.hidden || $("panel").hidden || !$("frame").getAttribute("src")) return;
    $("frame").src = "/api/calibration/frame.jpg?t=" + Date.now();
  }, 3000);

  $("find-corners").addEventListener("click", async () => {
    notice("cal-notice", t("cal_finding"), false);
    const reply = await send("/api/calibration/find", {});
    if (reply.ok && reply.body && reply.body.corners) {
      corners = reply.body.corners;
      drawCorners();
      notice("cal-notice", t("cal_found"), false);
    } else if (reply.body && reply.body.key === "calibration.no_finder") {
      notice("cal-notice", t("cal_no_finder"), true);
    } else {
      notice("cal-notice", t("cal_not_found"), true);
    }
  });

  $("run-calibration").addEventListener("click", async () => {
    if (corners.filter(Boolean).length !== 4) {
      notice("cal-notice", t("cal_need_corners"), true);
      return;
    }
    notice("cal-notice", t("cal_running"), false);
    $("run-calibration").disabled = true;
    const reply = await send("/api/calibration/apply", { corners });
    $("run-calibration").disabled = false;
    $("cal-result").hidden = false;
    $("cal-overlay").src = "/api/calibration/overlay.jpg?t=" + Date.now();
    if (reply.ok) {
      notice("cal-notice", t("cal_ok"), false);
      return;
    }
    const body = reply.body || {};
    let reason;
    if (body.key && body.key !== "calibration.failed" && has(body.key)) reason = t(body.key, body.params);
    else reason = explain(reply.status, body.key === "calibration.failed" ? { error: (body.params || {}).reason } : body);
    notice("cal-notice", t("cal_failed", { reason }), true);
  });

  checkSession();
})();
