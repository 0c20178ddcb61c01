// A game's rules options as form fields, and reading them back: one definition for every
// page that makes tables (the lobby's "New table", the club events' "New event").
import { escapeHtml } from "./tiles.js";

// A rules option's label and help text: the game's own words (game_info's `label` and
// `help`), else the option's name made readable ("round_to_five" -> "Round to five").
export function humanise(name) {
  const words = String(name).replace(/_/g, " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function valueWords(v) {
  return typeof v === "string" ? humanise(v) : String(v);
}

// An option's help as a player reads it: a reference to another option in code terms
// ("when marks=True") is said with that option's label ("when “Play for marks” is ticked").
function helpWords(text, options) {
  return String(text).replace(/\b([a-z_]+)=(True|False)\b/g, (said, key, value) => {
    const other = options[key];
    if (!other) return said;
    return `“${other.label || humanise(key)}” is ${value === "True" ? "ticked" : "not ticked"}`;
  });
}

// One option of the game, drawn from its declared facts (label, help, type, range); `prefix`
// keeps the field ids apart where two forms share a page.
export function optionInput(name, d, options = {}, prefix = "opt-") {
  const id = `${prefix}${name}`;
  const label = escapeHtml(d.label || humanise(name));
  const help = escapeHtml(helpWords(d.help || d.doc || "", options));
  if (d.type === "bool") {
    return `<label class="opt-check" for="${id}"><input id="${id}" type="checkbox" data-opt="${name}" data-type="bool"${
      d.default ? " checked" : ""}> ${label}<small>${help}</small></label>`;
  }
  let input;
  if (d.allowed) {
    input = `<select id="${id}" data-opt="${name}" data-type="${d.type}">${d.allowed
      .map((v) => `<option value="${escapeHtml(JSON.stringify(v))}"${v === d.default ? " selected" : ""}>${escapeHtml(valueWords(v))}</option>`)
      .join("")}</select>`;
  } else if (d.type === "int" || d.type === "float") {
    input = `<input id="${id}" type="number" data-opt="${name}" data-type="${d.type}" value="${d.default}"${
      d.minimum !== undefined ? ` min="${d.minimum}"` : ""}${d.maximum !== undefined ? ` max="${d.maximum}"` : ""}>`;
  } else {
    input = `<input id="${id}" data-opt="${name}" data-type="${d.type}" value="${escapeHtml(String(d.default))}">`;
  }
  return `<label for="${id}">${label} ${input}<small>${help}</small></label>`;
}

// The rules chosen in the form: each field marked data-opt, read back as its declared type.
export function readRules(root = document) {
  const rules = {};
  root.querySelectorAll("[data-opt]").forEach((el) => {
    const t = el.dataset.type;
    let v = el.value;
    if (t === "bool") v = el.checked;
    else if (el.tagName === "SELECT") v = JSON.parse(v);
    else if (t === "int") v = parseInt(v, 10);
    else if (t === "float") v = parseFloat(v);
    rules[el.dataset.opt] = v;
  });
  return rules;
}
