// Words the two events pages share: an event's facts and state, said the same way in the list and on its page.

export function formatWords(ev) {
  const rounds = ev.rounds ? `${ev.rounds} round${ev.rounds === 1 ? "" : "s"}` : "as many rounds as it takes";
  return `${ev.format === "swiss" ? "Swiss" : "round robin"}, ${rounds}`;
}

export function stateWords(ev) {
  if (ev.state === "open") {
    const n = Array.isArray(ev.entrants) ? ev.entrants.length : ev.entrants;
    return `open for entries (${n} joined)`;
  }
  if (ev.state === "running") return `round ${ev.round}${ev.rounds ? ` of ${ev.rounds}` : ""} under way`;
  return "finished";
}

// A number of event points as people write it: 2.5, not 2.50; 3, not 3.0.
export function pointsWords(p) {
  return p === null || p === undefined ? "" : String(Math.round(p * 2) / 2);
}
