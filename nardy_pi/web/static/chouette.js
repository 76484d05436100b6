// The chouette panel: set-up, each member's cube actions, results and standings.
// Reads /api/chouette (open), changes through /api/chouette/<action> (PIN session).
"use strict";

(() => {
  const { t, el } = NARDY;
  const $ = (id) => document.getElementById(id);
  let authenticated = false;

  function say(text, isError) {
    const toast = $("toast");
    toast.textContent = text;
    toast.className = "toast show" + (isError ? " error" : "");
    clearTimeout(say.timer);
    say.timer = setTimeout(() => { toast.className = "toast"; }, 6000);
  }

  async function post(url, data) {
    let response;
    try {
      response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
                                    body: JSON.stringify(data || {}), credentials: "same-origin" });
    } catch (err) {
      say(t("err_network"), true);
      return null;
    }
    const body = await response.json().catch(() => null);
    if (response.status === 401) { authenticated = false; showLogin(); }
    if (!response.ok) { say((body && body.error) || "HTTP " + response.status, true); return null; }
    return body;
  }

  async function act(action, data) {
    const body = await post("/api/chouette/" + action, data);
    if (body) { say(t("done"), false); render(body.chouette); }
  }

  function button(label, onClick, secondary) {
    const b = el("button", secondary ? "secondary" : "", label);
    b.type = "button";
    b.addEventListener("click", onClick);
    return b;
  }

  function render(ch) {
    $("ch-none").hidden = Boolean(ch);
    $("ch-running").hidden = !ch || !authenticated;
    $("ch-setup").hidden = !authenticated;
    const scores = $("ch-scores").tBodies[0];
    scores.replaceChildren();
    if (!ch) return;
    for (const row of ch.scores) {
      const tr = el("tr");
      const role = row.player === ch.box ? t("ch_box") : row.player === ch.captain ? t("ch_captain") : "";
      tr.append(el("td", "", row.player), el("td", "num", (row.score > 0 ? "+" : "") + row.score), el("td", "", role));
      scores.append(tr);
    }
    const offer = ch.offer;
    const head = [t("ch_game", { n: ch.game_number }), t("ch_box") + ": " + ch.box, t("ch_captain") + ": " + ch.captain];
    if (offer) head.push(t("ch_waiting", { names: offer.answering.join(", ") }));
    $("ch-head").textContent = head.join(" · ");
    const stakes = $("ch-stakes").tBodies[0];
    stakes.replaceChildren();
    for (const s of ch.stakes) {
      const tr = el("tr");
      tr.dataset.member = s.member;
      const cube = s.out ? t("ch_out") : t("cube") + " " + s.cube + (s.owner === "center" ? "" : " · " + (s.owner === "box" ? t("ch_box") : s.member));
      const actions = el("td", "buttons");
      if (offer && offer.answering.includes(s.member)) {
        actions.append(button(t("ch_take"), () => act("answer", { player: s.member, take: true })),
                       button(t("ch_pass"), () => act("answer", { player: s.member, take: false }), true));
      } else if (!offer && !s.out) {
        const mayDouble = ch.cube_mode === "per_member" || s.member === ch.captain;
        if (mayDouble && s.owner !== "box") actions.append(button(t("ch_double"), () => act("double", { player: s.member })));
        if (ch.cube_mode === "per_member" && s.owner !== "member") {
          actions.append(button(t("ch_box_double"), () => act("double", { player: ch.box, to: [s.member] }), true));
        }
      }
      if (!s.out && !offer) actions.append(button(t("ch_leave"), () => act("leave", { player: s.member }), true));
      tr.append(el("td", "", s.member), el("td", "", cube), actions);
      stakes.append(tr);
    }
    const box = $("ch-box-actions");
    box.replaceChildren(el("strong", "", t("ch_box") + " " + ch.box + ": "));
    if (offer && offer.answering.includes(ch.box)) {
      box.append(button(t("ch_take"), () => act("answer", { player: ch.box, take: true })),
                 button(t("ch_pass"), () => act("answer", { player: ch.box, take: false }), true));
    } else if (!offer && ch.cube_mode === "single") {
      box.append(button(t("ch_box_double"), () => act("double", { player: ch.box })));
    }
    const results = $("ch-results");
    results.replaceChildren();
    if (!offer) {
      for (const [winner, label] of [["box", t("ch_box_wins")], ["team", t("ch_team_wins")]]) {
        for (const [m, kind] of [[1, "ch_single_win"], [2, "ch_gammon"], [3, "ch_backgammon"]]) {
          results.append(button(label + ": " + t(kind), () => act("game_over", { winner, multiplier: m }), m > 1));
        }
      }
    }
  }

  function showLogin() { $("ch-login").hidden = false; }

  async function refresh() {
    try {
      const response = await fetch("/api/chouette", { cache: "no-store" });
      if (response.ok) render((await response.json()).chouette);
    } catch (err) { /* the next refresh tries again */ }
  }

  $("ch-login-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = await post("/api/login", { pin: $("ch-pin").value });
    if (body) { authenticated = true; $("ch-login").hidden = true; refresh(); }
  });
  $("ch-start").addEventListener("submit", (event) => {
    event.preventDefault();
    const players = $("ch-players").value.split("\n").map((s) => s.trim()).filter(Boolean);
    act("start", { players, cube_mode: $("ch-mode").value });
  });
  $("ch-join").addEventListener("submit", (event) => {
    event.preventDefault();
    act("join", { player: $("ch-join-name").value.trim() });
  });

  (async () => {
    try {
      const session = await (await fetch("/api/session", { cache: "no-store" })).json();
      authenticated = session.authenticated;
      if (!authenticated && session.enabled) showLogin();
    } catch (err) { /* shown as read-only */ }
    await refresh();
    setInterval(refresh, 3000);  // results booked from the board appear by themselves
  })();
})();
