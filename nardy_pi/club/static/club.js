// The tournament page: one card per table, kept live over server-sent events
// (/api/boards/events); polling /api/boards is the fallback when the stream fails.
"use strict";

(() => {
  const { t, el, lang } = NARDY;
  const body = document.body;
  const pollMs = Number(body.dataset.pollMs) || 3000;
  const heartbeatMs = Number(body.dataset.heartbeatMs) || 15000;
  const tables = new Map();  // board name -> payload
  const $ = (id) => document.getElementById(id);

  function cubeText(state) {
    if (state.cube_owner === "center") return t("cube") + " " + state.cube_value + " · " + t("cube_center");
    return t("cube") + " " + state.cube_value + " · " + t("cube_owner", { side: t(state.cube_owner) });
  }

  function scoreRow(state) {
    const row = el("div", "table-score");
    for (const side of ["white", "black"]) {
      const p = state[side] || {};
      const who = el("span", "who");
      if (state.turn === side && !state.winner) who.classList.add("active");
      who.append(el("span", "chip " + side), document.createTextNode(String(p.name || t(side))));
      const pts = el("span", "pts", String(p.score ?? 0));
      if (side === "white") row.append(who, pts);
      else row.append(pts, who);
    }
    return row;
  }

  function card(payload) {
    const box = el("article", "table-card " + payload.status);
    box.dataset.board = payload.board;
    box.dataset.status = payload.status;
    const head = el("div", "table-head");
    head.append(el("span", "table-name", payload.board),
                el("span", "table-status " + payload.status, t(payload.status)));
    box.append(head);
    const state = payload.state;
    if (!state) {
      box.append(el("div", "table-variant", t("no_state")));
      return box;
    }
    const title = payload.variant_title ? payload.variant_title[lang] : state.variant;
    box.append(el("div", "table-variant", String(title || "")));
    box.append(scoreRow(state));
    const match = state.match_length ? t("match_to", { n: state.match_length }) : t("money");
    box.append(el("div", "table-match", [match, t("game_n", { n: state.game_number }), cubeText(state)].join(" · ")));
    let turn = t("phase_" + state.phase);
    if (state.winner) turn = t("winner", { side: t(state.winner) });
    else if (state.turn) turn = t("turn_of", { name: (state[state.turn] || {}).name || t(state.turn) }) + " · " + turn;
    box.append(el("div", "table-turn", turn));
    const lm = state.last_move;
    if (lm) box.append(el("div", "table-last", t("last_move") + ": " + t(lm.side) + " " + (lm.dice || []).join("") + " " + lm.text));
    const ch = state.chouette;
    if (ch && Array.isArray(ch.scores)) {
      const scores = ch.scores.map((s) => s.player + " " + (s.score > 0 ? "+" : "") + s.score).join(", ");
      box.append(el("div", "table-chouette", t("chouette_line", { n: ch.game_number, box: ch.box, captain: ch.captain }) + " · " + scores));
    }
    if (payload.board_svg) {
      const pic = el("div", "table-board");
      pic.innerHTML = payload.board_svg;  // rendered by the server from checked numbers only
      box.append(pic);
    }
    box.append(el("div", "table-updated", t("updated", { t: new Date(payload.updated).toLocaleTimeString(lang) })));
    return box;
  }

  function render() {
    const list = $("tables");
    const names = [...tables.keys()].sort();
    list.replaceChildren(...names.map((name) => card(tables.get(name))));
    $("empty").hidden = names.length > 0;
  }

  function showLink(link) {
    const node = $("link");
    const mode = link === "ok" ? "live" : "offline";
    node.dataset.conn = mode;
    node.textContent = t("broker") + ": " + t("status_" + link);
  }

  function apply(data) {
    if (data.full) tables.clear();
    for (const payload of data.tables) tables.set(payload.board, payload);
    if (data.link) showLink(data.link);
    render();
  }

  function setConn(mode) {
    const conn = $("conn");
    conn.dataset.conn = mode;
    conn.title = t("conn_" + mode);
    conn.textContent = t("conn_" + mode);
  }

  let source = null;
  let watchdog = null;
  let pollTimer = null;

  function kickWatchdog() {
    clearTimeout(watchdog);
    watchdog = setTimeout(fallBack, heartbeatMs * 2.5);
  }

  function openStream() {
    if (!window.EventSource) return fallBack();
    clearInterval(pollTimer);
    pollTimer = null;
    source = new EventSource("/api/boards/events");
    source.addEventListener("tables", (event) => {
      setConn("live");
      kickWatchdog();
      apply(JSON.parse(event.data));
      body.dataset.updates = String(Number(body.dataset.updates || 0) + 1);
    });
    source.addEventListener("heartbeat", (event) => {
      setConn("live");
      kickWatchdog();
      showLink(JSON.parse(event.data).link);
    });
    source.onerror = () => {
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
    setTimeout(openStream, 30000);
  }

  async function poll() {
    try {
      const response = await fetch("/api/boards", { cache: "no-store" });
      if (response.ok) {
        // The plain API has no pictures: keep the ones already drawn.
        const data = await response.json();
        const fresh = data.boards.map((b) => ({ ...(tables.get(b.board) || {}), ...b }));
        apply({ tables: fresh, full: true });
      }
      setConn(response.ok ? "polling" : "offline");
    } catch (err) {
      setConn("offline");
    }
  }

  apply(JSON.parse($("initial").textContent));
  openStream();
})();
