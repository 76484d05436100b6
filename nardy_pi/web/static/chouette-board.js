// The chouette standings on the scoreboard: whenever the scoreboard shows a new snapshot
// (it sets body[data-seq]), read /api/chouette and show box, captain and scores.
"use strict";

(() => {
  const { el, lang } = NARDY;
  // Its own few words: the scoreboard's texts are the page engineer's and stay as they are.
  const WORDS = {
    en: { chouette: "Chouette", game: "game {n}", box: "Box", captain: "Captain" },
    ru: { chouette: "Шуэт", game: "партия {n}", box: "Бокс", captain: "Капитан" },
  };
  const words = WORDS[lang] || WORDS.en;
  const card = el("div", "card chouette");
  card.id = "chouette-card";
  card.hidden = true;
  const side = document.querySelector(".side") || document.querySelector("main");
  side.prepend(card);

  function render(ch) {
    card.hidden = !ch;
    if (!ch) return;
    const title = el("h2", "", words.chouette + " · " + words.game.replace("{n}", ch.game_number));
    const roles = el("div", "match-line", words.box + ": " + ch.box + " · " + words.captain + ": " + ch.captain);
    const table = el("table", "move-table");
    const body = el("tbody");
    for (const row of ch.scores) {
      const tr = el("tr");
      tr.append(el("td", "", row.player), el("td", "num", (row.score > 0 ? "+" : "") + row.score));
      body.append(tr);
    }
    table.append(body);
    card.replaceChildren(title, roles, table);
  }

  let shownSeq = null;
  async function refresh() {
    const seq = document.body.dataset.seq;
    if (seq === shownSeq) return;
    shownSeq = seq;
    try {
      const response = await fetch("/api/chouette", { cache: "no-store" });
      if (response.ok) render((await response.json()).chouette);
    } catch (err) { shownSeq = null; }
  }

  new MutationObserver(refresh).observe(document.body, { attributes: true, attributeFilter: ["data-seq"] });
  refresh();
})();
