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
  const sideName = (side) => t(side);

  function clock(seconds) {
    if (seconds === null || seconds === undefined) return "";
    const s = Math.max(0, Math.round(seconds));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  function renderTurn(state) {
    const turn = $("turn");
    turn.replaceChildren();
    if (state.winner) {
      turn.append(el("span", "chip " + state.winner), el("span", "", t("winner", { side: sideName(state.winner) })));
    } else if (state.turn) {
      turn.append(el("span", "chip " + state.turn), el("span", "", sideName(state.turn) + " " + t("to_move")));
    }
    turn.dataset.side = state.winner || state.turn || "";
    $("phase").textContent = t("phase_" + state.phase);
  }

  function renderDice(payload) {
    const state = payload.state;
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
    name.append(el("span", "chip " + side), document.createTextNode(p.name));
    const stats = el("span", "stats");
    stats.append(el("span", "score", String(p.score)));
    stats.append(el("span", "stat", p.pips + " " + t("pips")));
    if (p.borne_off) stats.append(el("span", "stat", p.borne_off + " " + t("off")));
    if (p.on_bar) stats.append(el("span", "stat warn", p.on_bar + " " + t("bar")));
    const time = clock(p.clock_seconds);
    if (time) stats.append(el("span", "stat clock", time));
    box.append(name, stats);
  }

  function renderMatch(payload) {
    const state = payload.state;
    $("variant").textContent = payload.variant_title[lang] || state.variant;
    const parts = [state.match_length ? t("match_to", { n: state.match_length }) : t("money"),
                   t("game_n", { n: state.game_number })];
    const match = $("match");
    match.replaceChildren(document.createTextNode(parts.join(" · ")));
    if (state.crawford) match.append(el("span", "badge", t("crawford")));
    const cube = $("cube");
    const owner = state.cube_owner === "center" ? t("cube_center") : t("cube_owner", { side: sideName(state.cube_owner) });
    cube.replaceChildren(el("span", "cube-box", String(state.cube_value)), document.createTextNode(" " + t("cube") + " · " + owner));
    if (state.cube_offered) cube.append(el("span", "badge", t("cube_offered")));
  }

  function renderMoves(state) {
    const rows = [];
    let row = null;
    for (const move of state.moves) {
      if (!row || row[move.side] || (move.side === "white" && row.black)) {
        row = { number: rows.length + 1 };
        rows.push(row);
      }
      row[move.side] = move;
    }
    const tbody = $("moves").tBodies[0];
    tbody.replaceChildren();
    const last = state.moves[state.moves.length - 1];
    for (const r of rows) {
      const tr = el("tr");
      tr.append(el("td", "num", r.number + "."));
      for (const side of ["white", "black"]) {
        const m = r[side];
        const td = el("td", m && m === last ? "move newest" : "move");
        if (m) td.textContent = (m.dice.length ? m.dice.join("") + ": " : "") + m.text;
        tr.append(td);
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
    const lm = state.last_move;
    $("last-move").textContent = lm ? t("last_move") + ": " + sideName(lm.side) + " " + lm.dice.join("") + " " + lm.text : "";
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
      item.append(el("span", "dot"), document.createTextNode(t("device_" + name) + ": " + t("status_" + status)));
      box.append(item);
    }
  }

  function render(payload) {
    current = payload;
    const state = payload.state;
    body.dataset.seq = state.seq;
    renderTurn(state);
    renderDice(payload);
    renderPlayer(state, "black");
    renderPlayer(state, "white");
    renderMatch(payload);
    renderMoves(state);
    renderAlerts(state);
    renderDevices(state);
    $("board").innerHTML = payload.board_svg;  // generated by the server from numbers only
  }

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
