// SVG dominoes: tileSVG("6-4", {vertical, selected, small, back}) returns an <svg> string;
// tileGroup(a, b, x, y, vertical) returns one domino as a <g> inside a larger drawing.

const PIPS = {
  0: [],
  1: [[0.5, 0.5]],
  2: [[0.27, 0.27], [0.73, 0.73]],
  3: [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]],
  4: [[0.27, 0.27], [0.73, 0.27], [0.27, 0.73], [0.73, 0.73]],
  5: [[0.25, 0.25], [0.75, 0.25], [0.5, 0.5], [0.25, 0.75], [0.75, 0.75]],
  6: [[0.27, 0.22], [0.73, 0.22], [0.27, 0.5], [0.73, 0.5], [0.27, 0.78], [0.73, 0.78]],
};

export function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function halfSVG(n, x0, y0, size) {
  const pips = PIPS[n];
  if (!pips) {
    return `<text x="${x0 + size / 2}" y="${y0 + size * 0.68}" font-size="${size * 0.55}" text-anchor="middle" class="pipnum">${n}</text>`;
  }
  const r = size * 0.085;
  return pips.map(([px, py]) => `<circle cx="${x0 + px * size}" cy="${y0 + py * size}" r="${r}" class="pip"/>`).join("");
}

// One domino. The first number is drawn on the left (or top when vertical).
export function tileSVG(text, opts = {}) {
  const o = Object.assign({ vertical: false, selected: false, back: false, cls: "", title: null }, opts);
  const [a, b] = String(text).split("-").map(Number);
  const u = 40;
  const w = o.vertical ? u : 2 * u;
  const h = o.vertical ? 2 * u : u;
  const classes = ["tile", o.vertical ? "v" : "h", o.selected ? "selected" : "", o.back ? "back" : "", o.cls].join(" ");
  const title = o.title === null ? text : o.title;
  let inner = `<rect x="1" y="1" width="${w - 2}" height="${h - 2}" rx="6" class="face"/>`;
  if (!o.back) {
    inner += o.vertical
      ? `<line x1="6" y1="${u}" x2="${u - 6}" y2="${u}" class="bar"/>` + halfSVG(a, 0, 0, u) + halfSVG(b, 0, u, u)
      : `<line x1="${u}" y1="6" x2="${u}" y2="${u - 6}" class="bar"/>` + halfSVG(a, 0, 0, u) + halfSVG(b, u, 0, u);
  }
  const data = o.back ? "" : ` data-tile="${escapeHtml(text)}"`;
  return `<svg class="${classes}" viewBox="0 0 ${w} ${h}" width="${w}" height="${h}" role="img" aria-label="${escapeHtml(
    o.back ? "hidden tile" : text
  )}"${data}><title>${escapeHtml(o.back ? "hidden tile" : title)}</title>${inner}</svg>`;
}

// A row of face-down tiles (an opponent's hand), n of them.
export function backsSVG(n, small = true) {
  let out = "";
  for (let i = 0; i < n; i++) out += tileSVG("0-0", { back: true, vertical: true, cls: small ? "mini" : "" });
  return out;
}

// A tile laid along a line of play: doubles crosswise, others lengthwise with `first` outward-facing end order.
export function lineTileSVG(text, first, horizontal, opts = {}) {
  const [a, b] = String(text).split("-").map(Number);
  const isDouble = a === b;
  const ordered = first === undefined || first === null || first === a ? `${a}-${b}` : `${b}-${a}`;
  return tileSVG(ordered, Object.assign({ vertical: isDouble ? horizontal : !horizontal, title: text }, opts));
}

// One domino as a <g> placed at (x, y) in a larger SVG drawing (units: a half is 40 wide).
// `a` is the left (or top) half. Each half carries an invisible box with data-pips, so
// tests can check which number lies where.
export function tileGroup(a, b, x, y, vertical, attrs = "", cls = "") {
  const u = 40;
  const w = vertical ? u : 2 * u;
  const h = vertical ? 2 * u : u;
  const [bx, by] = vertical ? [x, y + u] : [x + u, y];
  const bar = vertical
    ? `<line x1="${x + 6}" y1="${y + u}" x2="${x + u - 6}" y2="${y + u}" class="bar"/>`
    : `<line x1="${x + u}" y1="${y + 6}" x2="${x + u}" y2="${y + u - 6}" class="bar"/>`;
  const box = (n, hx, hy) => `<rect class="halfbox" data-pips="${n}" x="${hx}" y="${hy}" width="${u}" height="${u}" fill="none"/>`;
  return `<g class="ltile ${cls}" data-orient="${vertical ? "v" : "h"}" ${attrs}><title>${escapeHtml(`${a}-${b}`)}</title>` +
    `<rect x="${x + 1}" y="${y + 1}" width="${w - 2}" height="${h - 2}" rx="6" class="face"/>${bar}` +
    halfSVG(a, x, y, u) + halfSVG(b, bx, by, u) + box(a, x, y) + box(b, bx, by) + "</g>";
}

