// Eighty at the table: the bidding (a stepper, not thirty buttons), trumps marked in the
// hand, the partnerships (the view's declared `partners`), the trick with its led suit; at a
// hand's end, its last trick with its winner and every trick, from the hand_end event.
import { escapeHtml, publicFields, hiddenHand, around, trickHTML, tricksHTML, suitName, nameList, signed }
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

// The partnerships, as the game declares them.
function sides(view) {
  return view.partners || [];
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
    "last_result", "final_trick", "played", "ended"]);
  const trump = view.nello ? "Nel-O (no trump)" : view.trump === null || view.trump === undefined ? "not named" : suitName(view.trump);
  const bid = view.high_bid ? `${escapeHtml(String(view.high_bid))} by ${escapeHtml(ctx.seatName(view.bidder))}` : "none yet";
  const facts = `<div class="facts"><span>Hand ${view.hand_number}</span><span>High bid <b>${bid}</b></span>
    <span class="trumpfact">Trump <b>${trump}</b></span>${view.ended ? "" : `<span>Lying out ${view.lying_out}</span>`}</div>`;
  const side = (s) => sides(view).findIndex((p) => p.includes(s));
  const perSeat = (s) =>
    `<div class="seatline"><span class="badge side${side(s)}">side ${side(s) + 1}</span>${
      view.bids && view.bids[s] !== null && view.bids[s] !== undefined ? `<span class="badge">${view.bids[s] === "pass" ? "passed" : `bid ${escapeHtml(String(view.bids[s]))}`}</span>` : ""
    }${view.sitting_out === s ? "<span class='badge'>sits out</span>" : ""} tricks ${(view.tricks_won || [])[s] || 0}</div>${
      s === view.seat || view.ended ? "" : hiddenHand(view.hand_sizes[s])
    }`;
  // one column per side (two), one row per figure: narrow enough for a phone
  const sd = view.sides || [];
  const heads = sd.map((x, i) => `<th><span class="badge side${i}">side ${i + 1}</span><br><small>${x.seats
    .map((s) => escapeHtml(ctx.seatName(s))).join(" & ")}</small></th>`).join("");
  const figures = view.ended ? [["tricks", "tricks"], ["taken", "points taken"], ["gains", "this hand"], ["points", "score"]]
    : [["tricks", "tricks"], ["count", "count tiles"], ["taken", "points taken"], ["points", "score"]];
  // at a hand's end the score is the event's totals: marks themselves under the marks rule
  if (view.rules && view.rules.marks && !view.ended) figures.push(["marks", "marks"]);
  const rows = figures.map(([k, say]) => `<tr><th>${say}</th>${sd.map((x) => `<td class="num">${escapeHtml(String(x[k]))}</td>`).join("")}</tr>`).join("");
  // a wide board: one row per side, above the seats, so that the bar of the hand and its
  // actions (which stays at the foot of the screen) never covers it
  const wide = (ctx.boardWidth || 0) >= 640;
  const across = sd.map((x, i) => `<tr><th><span class="badge side${i}">side ${i + 1}</span> <small>${x.seats
    .map((s) => escapeHtml(ctx.seatName(s))).join(" & ")}</small></th>${figures.map(([k]) => `<td class="num">${escapeHtml(String(x[k]))}</td>`).join("")}</tr>`).join("");
  const table = !sd.length ? "" : wide
    ? `<div class="scroll-x"><table class="list sides across"><thead><tr><th></th>${figures.map(([, say]) => `<th class="num">${say}</th>`).join("")}</tr></thead><tbody>${across}</tbody></table></div>`
    : `<div class="scroll-x"><table class="list sides"><thead><tr><th></th>${heads}</tr></thead><tbody>${rows}</tbody></table></div>`;
  // the view writes the led suit as "trump", "doubles" or a number
  const ledSuit = view.led_suit;
  const led = ledSuit === null || ledSuit === undefined || !(view.trick || []).length ? ""
    : ledSuit === "trump" ? "trump led" : ledSuit === "doubles" ? "doubles led" : `led: ${suitName(Number(ledSuit))}`;
  const played = view.ended ? tricksHTML(view.played, ctx) : "";
  const seats = around(view, ctx, perSeat, trickHTML(view, ctx, led));
  return facts + (wide ? table + seats : seats + table) + played + publicFields(view, used);
}

// ----- the end of a hand -------------------------------------------------------------------

// The hand as it ended, from its hand_end event: the bid, the trump, the tricks each seat
// took, the last trick on the table with its winner, every trick, and each side's figures.
function endView(end, view) {
  const played = end.played || [];
  const last = played[played.length - 1];
  const won = Array.from({ length: view.players }, () => 0);
  played.forEach((t) => (won[t.seat] += 1));
  const figures = sides(view).map((seats, i) => ({ seats, tricks: end.tricks[i], taken: end.taken[i], gains: end.gains[i],
    points: end.totals[seats[0]], marks: end.marks[i] }));
  return { game: view.game, players: view.players, seat: view.seat, rules: view.rules, partners: view.partners, ended: true,
    current_player: null, hand_number: end.hand, bidder: end.bidder, high_bid: end.bid, trump: end.trump,
    nello: end.bid === "nel-o", tricks_won: won, trick: [], final_trick: last ? { plays: last.plays, winner: last.seat } : null,
    played, sides: figures };
}

// Each side's figures from the hand_end event: tricks, points taken, what it scored (while
// the board shows the ended hand, its table of the sides says it).
function result(view, end, ctx) {
  if (ctx.ending) return "";
  const lines = sides(view).map((seats, i) => `<li><b>${escapeHtml(nameList(seats, ctx))}</b>: ${end.tricks[i]} trick${
    end.tricks[i] === 1 ? "" : "s"}, ${end.taken[i]} taken; scores ${signed(end.gains[i])}, now ${end.totals[seats[0]]}</li>`);
  return `<ul class="scored">${lines.join("")}</ul>`;
}

export default { board, describe, ask, handMark, actionList, tools, bind, endView, result };
