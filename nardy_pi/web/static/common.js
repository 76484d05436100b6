// Shared helpers: translated texts and small DOM utilities. No framework, no build step.
"use strict";

const NARDY = (() => {
  const texts = JSON.parse(document.getElementById("i18n").textContent);
  const lang = document.documentElement.lang || "en";

  // Translated text for `key`, with {name} fields filled from `params`.
  function t(key, params) {
    let text = Object.prototype.hasOwnProperty.call(texts, key) ? texts[key] : key;
    for (const [name, value] of Object.entries(params || {})) {
      text = text.split("{" + name + "}").join(String(value));
    }
    return text;
  }

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  return { t, el, lang };
})();
