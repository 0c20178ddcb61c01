// How long a clock has left, as a player says it: "45 s", "12 minutes", "4 hours",
// "1 hour 30 minutes", "2 days 5 hours". The server sends seconds (`left`, `banks`, in its
// own time); these words are only the page's way of saying them.
function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// Rounded up at the finest unit said, as a clock reads: "4 hours" until the first second of
// the fourth hour has gone, "1 s" until the very end.
export function leftWords(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s < 120) return `${s} s`;
  const m = Math.ceil(s / 60);
  if (m < 60) return plural(m, "minute");
  if (s < 2 * 86400) {
    const hours = Math.floor(m / 60);
    const minutes = m % 60;
    return hours < 10 && minutes ? `${plural(hours, "hour")} ${plural(minutes, "minute")}` : plural(hours, "hour");
  }
  const h = Math.ceil(s / 3600);
  const days = Math.floor(h / 24);
  const rest = h % 24;
  return days < 3 && rest ? `${plural(days, "day")} ${plural(rest, "hour")}` : plural(days, "day");
}

// A table's clock option in words: "a move a day", "3 days a move", "a week each for the game".
export function clockWords(clock, perGame) {
  if (perGame) return `${perGame === 604800 ? "a week" : leftWords(perGame)} each for the whole game`;
  if (!clock) return "";
  if (clock === 86400) return "a move a day";
  return `${leftWords(clock)} a move`;
}
