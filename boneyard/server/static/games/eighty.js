// Eighty at the table: the bidding (a stepper, not thirty buttons), trumps marked in the
// hand, the partnerships, the trick with its led suit, and the hand's result in words.
import { escapeHtml, publicFields, hiddenHand, around, trickHTML, suitName, linesSince, finalTrick, nameList, signed }
  from "../core/board.js";

const ASK = { bid: "bid or pass", trump: "name trumps", play: "play a tile to the trick" };

function describe(action) {
  const w = action.split(" ");
  if (action === "pass") return "Pass";
  if (w[0] === "bid") return w[1] === "nel-o" ? "Bid Nel-O" : `Bid ${w[1]}`;
  if (w[0] === "trump") return `Trumps: ${suitName(Number(w[1]))}`;
  if (w[0] === "play") return `Play ${w[1]}`;
  return action.charAt(0).toUpperCase() + action.slice(1);
}

function ask(phase) {
  return ASK[phase] || String(phase);
}

function sides(view) {
  return view.partners || [[0, 2], [1, 3]];
}

const hasTrump = (view) => !view.nello && view.trump !== null && view.trump !== undefined;

function handMark(tile, view) {
  return hasTrump(view) && tile.split("-").map(Number).includes(view.trump) ? { cls: "trump", label: "trump" } : null;
}

// ----- the bid stepper: the numeric bids are one control, pass and Nel-O stay buttons ------

const numericBids = (legal) => legal.filter((a) => /^bid \d+$/.test(a)).map((a) => Number(a.split(" ")[1]));
let bidChoice = null;

function actionList(legal) {
  return legal.filter((a) => !/^bid \d+$/.test(a));
}

function tools(ctx) {
  const bids = ctx.replaying || ctx.ending ? [] : numericBids(ctx.state.legal_actions || []);
  if (!bids.length) {
    bidChoice = null;
    return "";
  }
  const lo = Math.min(...bids);
  const hi = Math.max(...bids);
  if (bidChoice === null || bidChoice < lo || bidChoice > hi) bidChoice = lo;
  return `<div class="bidder" role="group" aria-label="your bid">
    <button id="bid-down" type="button" aria-label="lower bid">−</button>
    <input id="bid-range" type="range" min="${lo}" max="${hi}" value="${bidChoice}" aria-label="bid">
    <button id="bid-up" type="button" aria-label="higher bid">+</button>
    <button id="bid-go" class="primary" type="button" data-bid="${bidChoice}">Bid ${bidChoice}</button></div>`;
}

function bind(ctx) {
  const range = document.getElementById("bid-range");
  if (!range) return;
  const go = document.getElementById("bid-go");
  const set = (n) => {
    bidChoice = Math.max(Number(range.min), Math.min(Number(range.max), n));
    range.value = String(bidChoice);
    go.textContent = `Bid ${bidChoice}`;
    go.dataset.bid = String(bidChoice);
  };
  range.addEventListener("input", () => set(Number(range.value)));
  document.getElementById("bid-down").addEventListener("click", () => set(bidChoice - 1));
  document.getElementById("bid-up").addEventListener("click", () => set(bidChoice + 1));
  go.addEventListener("click", () => ctx.shell.send(`bid ${bidChoice}`));
}

// ----- the board ---------------------------------------------------------------------------

function board(view, ctx) {
  const used = new Set(["hand_number", "shuffler", "partners", "bids", "high_bid", "bidder", "trump", "hand_sizes",
    "trick", "tricks", "tricks_won", "sides", "points", "marks", "leader", "led_suit", "lying_out", "nello", "sitting_out",
    "last_result", "final_trick"]);
  const trump = view.nello ? "Nel-O (no trump)" : view.trump === null || view.trump === undefined ? "not named" : suitName(view.trump);
  const bid = view.high_bid ? `${escapeHtml(String(view.high_bid))} by ${escapeHtml(ctx.seatName(view.bidder))}` : "none yet";
  const facts = `<div class="facts"><span>Hand ${view.hand_number}</span><span>High bid <b>${bid}</b></span>
    <span class="trumpfact">Trump <b>${trump}</b></span><span>Lying out ${view.lying_out}</span></div>`;
  const side = (s) => sides(view).findIndex((p) => p.includes(s));
  const perSeat = (s) =>
    `<div class="seatline"><span class="badge side${side(s)}">side ${side(s) + 1}</span>${
      view.bids && view.bids[s] !== null && view.bids[s] !== undefined ? `<span class="badge">${view.bids[s] === "pass" ? "passed" : `bid ${escapeHtml(String(view.bids[s]))}`}</span>` : ""
    }${view.sitting_out === s ? "<span class='badge'>sits out</span>" : ""} tricks ${(view.tricks_won || [])[s] || 0}</div>${
      s === view.seat ? "" : hiddenHand(view.hand_sizes[s])
    }`;
  // one column per side (two), one row per figure: narrow enough for a phone
  const sd = view.sides || [];
  const heads = sd.map((x, i) => `<th><span class="badge side${i}">side ${i + 1}</span><br><small>${x.seats
    .map((s) => escapeHtml(ctx.seatName(s))).join(" & ")}</small></th>`).join("");
  const figures = [["tricks", "tricks"], ["count", "count tiles"], ["taken", "points taken"], ["points", "score"]];
  if (view.rules && view.rules.marks) figures.push(["marks", "marks"]);
  const rows = figures.map(([k, say]) => `<tr><th>${say}</th>${sd.map((x) => `<td class="num">${escapeHtml(String(x[k]))}</td>`).join("")}</tr>`).join("");
  const table = sd.length ? `<div class="scroll-x"><table class="list sides"><thead><tr><th></th>${heads}</tr></thead><tbody>${rows}</tbody></table></div>` : "";
  // the view writes the led suit as "trump", "doubles" or a number
  const ledSuit = view.led_suit;
  const led = ledSuit === null || ledSuit === undefined || !(view.trick || []).length ? ""
    : ledSuit === "trump" ? "trump led" : ledSuit === "doubles" ? "doubles led" : `led: ${suitName(Number(ledSuit))}`;
  return facts + around(view, ctx, perSeat, trickHTML(view, ctx, led)) + table + publicFields(view, used);
}

// ----- the end of a hand -------------------------------------------------------------------

function endView(before, after) {
  const lines = linesSince(before, after);
  const won = (before.tricks_won || []).slice();
  lines.forEach((l) => {
    const m = /^seat (\d+) wins trick/.exec(l);
    if (m) won[Number(m[1])] += 1;
  });
  const r = after.last_result;
  // the sides' figures as the hand ended; every hand is played out
  const figures = r && before.sides ? before.sides.map((x, i) => Object.assign({}, x, {
    tricks: r.tricks[i], count: r.taken[i] - 2 * r.tricks[i], taken: r.taken[i], points: r.points[i], marks: (r.marks || [])[i],
  })) : before.sides;
  return Object.assign({}, before, { final_trick: finalTrick(before, lines), trick: [], tricks_won: won, sides: figures,
    hand_sizes: before.hand_sizes.map(() => 0) });
}

function headline(r, ctx) {
  const bidders = sides({}).find((p) => p.includes(r.bidder)) || [r.bidder];
  const side = bidders.includes(0) ? 0 : 1;
  const bid = r.bid === "nel-o" ? "Nel-O" : r.bid;
  return `${escapeHtml(ctx.seatName(r.bidder))} bid ${escapeHtml(String(bid))}${r.trump !== null && r.trump !== undefined ? ` with ${suitName(r.trump)} as trumps` : ""}: ${
    r.made ? "made it" : "set"} (${escapeHtml(nameList(bidders, ctx))} took ${r.taken[side]}).`;
}

function result(view, r, ctx) {
  const lines = sides(view).map((seats, i) => {
    const count = r.taken[i] - 2 * r.tricks[i];
    return `<li><b>${escapeHtml(nameList(seats, ctx))}</b>: ${r.tricks[i]} trick${r.tricks[i] === 1 ? "" : "s"} (${2 * r.tricks[i]}) + count tiles ${count} = ${
      r.taken[i]} taken; scores ${signed(r.gains[i])}, now ${r.points[i]}</li>`;
  });
  const rule = r.made ? "A side that makes its bid scores what it took; the defenders score what they took."
    : "The bid was set: the defenders score the bid plus what they took; the bidders score nothing.";
  return `<ul class="scored">${lines.join("")}</ul><p class="muted">${rule}</p>`;
}

function changes(r, view) {
  const out = [];
  sides(view).forEach((seats, i) => seats.forEach((s) => (out[s] = r.gains[i])));
  return out;
}

export default { board, describe, ask, sides, handMark, actionList, tools, bind, endView, headline, result, changes };
