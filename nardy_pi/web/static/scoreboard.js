// The scoreboard: renders one payload (State + board SVG + dice names) and keeps it live.
// Live path: server-sent events. Fallback: polling /api/state when the stream is refused
// (503 at the stream cap), fails, or goes silent past the heartbeat.
"use strict";

(() => {
  const { t, el, lang } = NARDY;
  const body = document.body;
  const pollMs = Number(body.dataset.pollMs) || 3000;
  const heartbeatMs = Number(body.dataset.heartbeatMs) || 15000;
  const STREAM_RETRY_MS = 30000;
  let current = JSON.parse(document.getElementById("initial").textContent);
  let farsiTable = localStorage.getItem("nardy-farsi") || "1";

  const $ = (id) => document.getElementById(id);
  const { playerName, lastResult, resultWords, cubeWords } = NARDY;
  const SEEN_KEY = "nardy-result-seen";
  const TICKING = ["rolling", "moving", "roll", "move"];
  let receivedAt = performance.now();

  function clock(seconds) {
    if (seconds === null || seconds === undefined) return "";
    const s = Math.max(0, Math.ceil(seconds));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  // Seconds left on the move timer for `side` now, counted down between snapshots. The
  // reading was taken at wall-clock `timer.at`; when this device's clock disagrees with the
  // referee's, it counts from when the snapshot arrived instead.
  function secondsLeft(state, side) {
    const timer = state.timer;
    if (timer && timer.side === side) {
      if (!timer.running) return timer.remaining;
      const late = Date.now() / 1000 - timer.at;
      const start = late >= 0 && late <= timer.limit ? timer.remaining - late : timer.remaining;
      return start - (performance.now() - receivedAt) / 1000;
    }
    const base = state[side].clock_seconds;
    if (base === null || base === undefined) return null;
    if (state.turn !== side || !TICKING.includes(state.phase) || state.winner) return base;
    return base - (performance.now() - receivedAt) / 1000;
  }

  function tick() {
    if (!current) return;
    for (const side of ["white", "black"]) {
      const node = document.querySelector(`#player-${side} .clock`);
      const left = secondsLeft(current.state, side);
      if (!node || left === null) continue;
      node.textContent = clock(left);
      node.classList.toggle("low", left <= 10);
    }
  }

  // The result stays on the page until someone taps "next" or the next game has begun.
  function pendingResult(state) {
    const result = lastResult(state);
    if (!result) return null;
    if (NARDY.OVER_PHASES.includes(state.phase) || state.winner) return result;
    const seen = Number(sessionStorage.getItem(SEEN_KEY) || 0);
    const fresh = result.number >= state.game_number - 1 && state.moves.length === 0;
    return fresh && seen < result.number ? result : null;
  }

  function scoreLine(state) {
    return t("score_line", {
      white: playerName(state, "white"), w: state.white.score,
      b: state.black.score, black: playerName(state, "black"),
    });
  }

  function renderResult(state) {
    const box = $("result");
    const result = pendingResult(state);
    box.hidden = !result;
    box.replaceChildren();
    if (!result) return;
    const matchOver = state.phase === "match_over";
    box.dataset.winner = result.winner || "";
    box.append(el("div", "result-game", t("result_game", { n: result.number })));
    const head = el("div", "result-head");
    if (result.winner) {
      head.append(el("span", "chip " + result.winner),
                  el("span", "", t("result_wins", { name: playerName(state, result.winner) })));
    } else {
      head.append(el("span", "", t("result_draw")));
    }
    box.append(head);
    const words = resultWords(result);
    if (words) box.append(el("div", "result-words", words));
    if (result.cube > 1) box.append(el("div", "result-cube", t("result_cube", { n: result.cube })));
    box.append(el("div", "result-score", t("match_score") + ": " + scoreLine(state)));
    const matchWinner = state.match_winner || (matchOver && state.winner);
    if (matchOver && matchWinner) {
      box.append(el("div", "result-match", t("match_wins", { name: playerName(state, matchWinner) })));
    } else if (state.crawford) {
      box.append(el("div", "result-crawford", t("crawford_note")));
    }
    if (matchOver) return;
    if (state.winner) {
      box.append(el("div", "hint", t("new_game_soon")));  // the board is still the old one
      return;
    }
    const next = el("button", "next-game", t("next_game", { n: state.game_number }));
    next.type = "button";
    next.addEventListener("click", () => {
      sessionStorage.setItem(SEEN_KEY, String(result.number));
      render(current);
    });
    box.append(next);
  }

  function renderTurn(state, result) {
    const turn = $("turn");
    turn.replaceChildren();
    const who = result ? result.winner : state.turn;
    if (result && result.winner) {
      turn.append(el("span", "chip " + result.winner),
                  el("span", "", t("result_wins", { name: playerName(state, result.winner) })));
    } else if (state.turn) {
      turn.append(el("span", "chip " + state.turn), el("span", "", playerName(state, state.turn) + " " + t("to_move")));
    }
    turn.dataset.side = who || "";
    turn.hidden = Boolean(result);  // the result card above says it
    $("phase").textContent = result ? t("result_game", { n: result.number }) : t("phase_" + state.phase);
  }

  function renderDice(payload) {
    const state = payload.state;
    const forced = payload.forced_play;
    $("forced").textContent = forced ? t("forced_play", { move: forced[lang] || forced.en }) : "";
    const dice = $("dice");
    dice.innerHTML = payload.dice_svg;  // server-generated from numbers only
    dice.dataset.values = state.dice.join("");
    const names = farsiTable !== "0" ? payload.dice_names[farsiTable] : null;
    $("dice-name").textContent = names ? (lang === "ru" ? names[0] : names[1] + " · " + names[0]) : "";
  }

  function renderPlayer(state, side) {
    const p = state[side];
    const box = $("player-" + side);
    box.replaceChildren();
    box.classList.toggle("active", state.turn === side && !state.winner);
    const name = el("span", "name");
    name.append(el("span", "chip " + side), document.createTextNode(playerName(state, side)));
    const stats = el("span", "stats");
    stats.append(el("span", "score", String(p.score)));
    stats.append(el("span", "stat", p.pips + " " + t("pips")));
    if (p.borne_off) stats.append(el("span", "stat", p.borne_off + " " + t("off")));
    if (p.on_bar) stats.append(el("span", "stat warn", p.on_bar + " " + t("bar")));
    const left = secondsLeft(state, side);
    if (left !== null) {
      const c = el("span", "stat clock", clock(left));
      c.title = t("time_left");
      stats.append(c);
    }
    box.append(name, stats);
  }

  // The move timer's rule, when the match has one.
  function timerRule(state) {
    const settings = state.settings || {};
    const seconds = settings.move_seconds || (state.timer && state.timer.limit);
    if (!seconds) return "";
    const loses = settings.timeout_loses || (state.timer && state.timer.timeout_loses);
    return t("clock_rule", { s: Math.round(seconds), outcome: t(loses ? "timeout_loss" : "timeout_warn") });
  }

  function renderMatch(payload, result) {
    const state = payload.state;
    $("variant").textContent = payload.variant_title[lang] || state.variant;
    const gameText = result ? t("result_game", { n: result.number }) : t("game_n", { n: state.game_number });
    const parts = [state.match_length ? t("match_to", { n: state.match_length }) : t("money"), gameText];
    const match = $("match");
    match.replaceChildren(document.createTextNode(parts.join(" · ")));
    if (state.crawford) match.append(el("span", "badge", t("crawford")));
    $("score").textContent = scoreLine(state);
    const rule = timerRule(state);
    $("timer-rule").textContent = rule;
    $("timer-rule").hidden = !rule;
    const cube = $("cube");
    const face = payload.cube_face;
    const box = el("span", "cube-box", String(face));
    box.dataset.face = face;
    cube.replaceChildren(box, document.createTextNode(" " + cubeWords(state, face)));
    cube.dataset.owner = state.cube_owner;
    if (state.cube_offered) cube.append(el("span", "badge", t("cube_offered")));
  }

  function moveCell(row) {
    if (!row) return "";
    const text = row[lang] || row.en;
    return (row.dice.length ? row.dice.slice(0, 2).join("") + ": " : "") + text;
  }

  function renderMoves(payload) {
    const state = payload.state;
    const heads = $("moves").tHead.rows[0].cells;
    heads[1].textContent = playerName(state, "white");
    heads[2].textContent = playerName(state, "black");
    const rows = [];
    let row = null;
    for (const move of payload.move_rows) {
      if (!row || row[move.side] || (move.side === "white" && row.black)) {
        row = { number: rows.length + 1 };
        rows.push(row);
      }
      row[move.side] = move;
    }
    const tbody = $("moves").tBodies[0];
    tbody.replaceChildren();
    const last = payload.move_rows[payload.move_rows.length - 1];
    for (const r of rows) {
      const tr = el("tr");
      tr.append(el("td", "num", r.number + "."));
      for (const side of ["white", "black"]) {
        const m = r[side];
        tr.append(el("td", m && m === last ? "move newest" : "move", moveCell(m)));
      }
      tbody.append(tr);
    }
    if (!rows.length) {
      const tr = el("tr");
      const td = el("td", "empty", t("no_moves"));
      td.colSpan = 3;
      tr.append(td);
      tbody.append(tr);
    }
    const scroller = tbody.closest(".move-scroll");
    scroller.scrollTop = scroller.scrollHeight;
    $("last-move").textContent = last ? t("last_move") + ": " + playerName(state, last.side) + " " + moveCell(last) : "";
  }

  function renderFairness(payload) {
    const f = payload.dice_fairness;
    $("fair-verdict").textContent = t(f.verdict, { p: f.p, n: f.min_rolls });
    $("fair-rolls").textContent = t("fair_rolls", { n: f.rolls });
    $("fair-scope").textContent = "· " + t(f.scope === "match" ? "fair_match_lower" : "fair_game");
    $("fairness").dataset.verdict = f.verdict;
  }

  function renderAlerts(state) {
    const box = $("alerts");
    box.replaceChildren();
    for (const alert of state.alerts) {
      const item = el("div", "alert " + alert.kind);
      item.append(el("strong", "", t("alert_" + alert.kind)), el("span", "", lang === "ru" ? alert.message_ru : alert.message_en));
      box.append(item);
    }
  }

  function renderDevices(state) {
    const box = $("devices");
    box.replaceChildren();
    for (const [name, status] of Object.entries(state.devices)) {
      const item = el("span", "device " + status);
      item.dataset.device = name;
      const label = NARDY.has("device_" + name) ? t("device_" + name) : name;
      item.append(el("span", "dot"), document.createTextNode(label + ": " + t("status_" + status)));
      box.append(item);
    }
  }

  function render(payload) {
    current = payload;
    receivedAt = performance.now();
    const state = payload.state;
    body.dataset.seq = state.seq;
    const result = pendingResult(state);
    renderResult(state);
    renderTurn(state, result);
    renderDice(payload);
    renderPlayer(state, "black");
    renderPlayer(state, "white");
    renderMatch(payload, result);
    renderMoves(payload);
    renderFairness(payload);
    renderAlerts(state);
    renderDevices(state);
    $("board").innerHTML = payload.board_svg;  // generated by the server from numbers only
  }
  setInterval(tick, 250);

  // --- connection: SSE first, polling as the fallback ---------------------------------
  let source = null;
  let pollTimer = null;
  let watchdog = null;
  let lastEtag = null;

  function setConn(mode) {
    const conn = $("conn");
    conn.dataset.conn = mode;
    conn.title = t("conn_" + mode);
    conn.textContent = t("conn_" + mode);
  }

  function kickWatchdog() {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => fallBack(), heartbeatMs * 2.5);
  }

  function openStream() {
    if (!window.EventSource) return fallBack();
    stopPolling();
    source = new EventSource("/api/events");
    source.addEventListener("state", (event) => {
      setConn("live");
      kickWatchdog();
      render(JSON.parse(event.data));
    });
    source.addEventListener("heartbeat", () => { setConn("live"); kickWatchdog(); });
    source.onerror = () => {
      // CLOSED: refused (e.g. 503 at the stream cap); otherwise the browser retries itself.
      if (source.readyState === EventSource.CLOSED) fallBack();
      else setConn("offline");
    };
    kickWatchdog();
  }

  function fallBack() {
    clearTimeout(watchdog);
    if (source) { source.close(); source = null; }
    if (pollTimer) return;
    poll();
    pollTimer = setInterval(poll, pollMs);
    setTimeout(openStream, STREAM_RETRY_MS);
  }

  function stopPolling() {
    clearInterval(pollTimer);
    pollTimer = null;
  }

  async function poll() {
    try {
      const headers = lastEtag ? { "If-None-Match": lastEtag } : {};
      const response = await fetch("/api/state", { cache: "no-store", headers });
      if (response.status === 200) {
        lastEtag = response.headers.get("ETag");
        render(await response.json());
      }
      setConn(response.ok || response.status === 304 ? "polling" : "offline");
    } catch (err) {
      setConn("offline");
    }
  }

  const farsi = $("farsi");
  farsi.value = farsiTable;
  farsi.addEventListener("change", () => {
    farsiTable = farsi.value;
    localStorage.setItem("nardy-farsi", farsiTable);
    render(current);
  });

  render(current);
  openStream();
})();
