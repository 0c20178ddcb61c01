// Keyboard and screen readers on the table page: number keys press the n-th action (1-9,
// 0 for the tenth), hand tiles read as "six four", and the status line is announced.
const WORDS = ["blank", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];

// "6-4" -> "six four"; "6-6" -> "double six"; other text is left as it is.
export function tileWords(tile) {
  const m = /^(\d+)-(\d+)$/.exec(tile || "");
  if (!m) return tile;
  const [a, b] = [Number(m[1]), Number(m[2])];
  const word = (n) => WORDS[n] || String(n);
  return a === b ? `double ${word(a)}` : `${word(a)} ${word(b)}`;
}

function label() {
  document.querySelectorAll("#hand [data-hand]").forEach((el) => {
    if (el.dataset.spoken === el.getAttribute("aria-label")) return;
    // keep what the page says after the tile ("tile 6-4, new"), with the tile in words
    const said = el.getAttribute("aria-label") || "";
    const prefix = `tile ${el.dataset.hand}`;
    const rest = said.startsWith(prefix) ? said.slice(prefix.length) : "";
    const words = `${tileWords(el.dataset.hand)}${rest}${el.classList.contains("playable") ? ", playable" : ""}`;
    el.setAttribute("aria-label", words);
    el.dataset.spoken = words;
  });
  document.querySelectorAll("#actions [data-action]").forEach((el, i) => {
    if (i < 10 && !el.dataset.key) {
      el.dataset.key = String((i + 1) % 10);
      el.setAttribute("aria-keyshortcuts", el.dataset.key);
      el.title = `${el.title || el.textContent} (key ${el.dataset.key})`;
    }
  });
}

function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const t = ev.target;
  if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
  if (!/^[0-9]$/.test(ev.key)) return;
  const index = ev.key === "0" ? 9 : Number(ev.key) - 1;
  const buttons = [...document.querySelectorAll("#actions [data-action]")];
  if (buttons[index] && !buttons[index].disabled) {
    ev.preventDefault();
    buttons[index].click();
  }
}

export function installKeys() {
  const status = document.getElementById("status");
  if (status) status.setAttribute("aria-live", "polite");
  for (const id of ["hand", "actions"]) {
    const el = document.getElementById(id);
    if (el) new MutationObserver(label).observe(el, { childList: true, subtree: true, attributes: true, attributeFilter: ["class"] });
  }
  label();
  document.addEventListener("keydown", onKey);
}
