// Shared helpers: translated texts, the players' words for a State, small DOM utilities.
// No framework, no build step.
"use strict";

const NARDY = (() => {
  const texts = JSON.parse(document.getElementById("i18n").textContent);
  const lang = document.documentElement.lang || "en";
  const DEFAULT_NAMES = { white: ["White", "Белые"], black: ["Black", "Чёрные"] };
  const SIDES = ["white", "black"];

  // Translated text for `key`, with {name} fields filled from `params`. Side names among
  // the params ("white"/"black") are translated too, so a refusal never shows English.
  function t(key, params) {
    let text = Object.prototype.hasOwnProperty.call(texts, key) ? texts[key] : key;
    for (const [name, value] of Object.entries(params || {})) {
      const shown = SIDES.includes(value) ? texts[value] : value;
      text = text.split("{" + name + "}").join(String(shown));
    }
    return text;
  }

  function has(key) { return Object.prototype.hasOwnProperty.call(texts, key); }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  const other = (side) => (side === "white" ? "black" : "white");

  // A player's name; the default names are the side's name in the page's language.
  function playerName(state, side) {
    const name = state && state[side] ? state[side].name : "";
    if (!name || DEFAULT_NAMES[side].includes(name)) return t(side);
    return name;
  }

  // The last finished game, whatever the snapshot calls it; null when none is known.
  function lastResult(state) {
    const r = state.last_result || state.result || null;
    if (r && r.winner !== undefined) {
      return {
        number: r.number || r.game || state.game_number,
        winner: r.winner,
        type: r.result || r.win_type || r.kind || null,
        points: r.points === undefined ? null : r.points,
        cube: r.cube || r.cube_value || 1,
      };
    }
    if (state.winner && /over/.test(state.phase)) {
      return { number: state.game_number, winner: state.winner, type: null, points: null, cube: state.cube_value };
    }
    return null;
  }

  // "Марс! +2": the win type and the points, as players say them.
  function resultWords(result) {
    const parts = [];
    if (result.type && has("result_" + result.type)) parts.push(t("result_" + result.type));
    if (result.points) parts.push(t("result_points", { n: result.points }));
    return parts.join(" ");
  }

  const ROLL_PHASES = ["rolling", "roll"];
  const OVER_PHASES = ["game_over", "match_over"];

  // Who may do what with the cube now: {double, take, pass}: {ok, actor, label, why}.
  function cubeChoices(state) {
    const offered = state.cube_offered || state.phase === "cube";
    const doubler = state.cube_offered_by || state.turn;
    const taker = doubler ? other(doubler) : null;
    const value = state.cube_value || 1;
    const name = (side) => playerName(state, side);
    const out = {};
    let why = null;
    const settings = state.settings || {};
    const limit = settings.cube_limit === undefined ? 64 : settings.cube_limit;
    if (state.winner || OVER_PHASES.includes(state.phase)) why = t("cube_why_over");
    else if (settings.cube === false) why = t("cube_why_none");
    else if (offered) why = t("cube_why_offered");
    else if (state.crawford) why = t("cube_why_crawford");
    else if (!state.turn || !ROLL_PHASES.includes(state.phase)) why = t("cube_why_phase");
    else if (state.cube_owner !== "center" && state.cube_owner !== state.turn) {
      why = t("cube_why_owner", { name: name(state.cube_owner) });
    } else if (limit && value * 2 > limit) why = t("cube_why_max");
    out.double = {
      ok: !why, actor: state.turn, why,
      label: state.turn ? t("cube_who_double", { name: name(state.turn), n: value * 2 }) : t("double"),
    };
    const answerWhy = offered ? null : t("cube_why_no_offer");
    out.take = {
      ok: !answerWhy, actor: taker, why: answerWhy,
      label: taker ? t("cube_who_take", { name: name(taker), n: value * 2 }) : t("take"),
    };
    out.pass = {
      ok: !answerWhy, actor: taker, why: answerWhy,
      label: taker ? t("cube_who_pass", { name: name(taker), other: name(doubler), n: value }) : t("pass"),
    };
    return out;
  }

  // The cube card's words: the face shown (64 in the middle) and what it is worth, where.
  function cubeWords(state, face) {
    if (state.cube_owner === "center") return t("cube_center_value", { face, n: state.cube_value });
    return t("cube_owned_value", { n: state.cube_value, name: playerName(state, state.cube_owner), side: t(state.cube_owner + "_side") });
  }

  return { t, has, el, lang, other, playerName, lastResult, resultWords, cubeChoices, cubeWords, OVER_PHASES };
})();
