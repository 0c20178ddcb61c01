// Eighty at the table: bids, trumps, the partnerships, the trick and the sides' figures.
import { escapeHtml, publicFields, hiddenHand, around, trickHTML, lastTrick, suitName } from "../core/board.js";

const ASK = { bid: "bid or pass", trump: "name trumps", play: "play a tile to the trick" };

function describe(action) {
  const w = action.split(" ");
  if (action === "pass") return "Pass";
  if (w[0] === "bid") return w[1] === "nel-o" ? "Bid Nel-O" : `Bid ${w[1]}`;
  if (w[0] === "trump") return `Trumps: ${suitName(Number(w[1]))}`;
  return action.charAt(0).toUpperCase() + action.slice(1);
}

function ask(phase) {
  return ASK[phase] || String(phase);
}

function board(view, ctx) {
  const used = new Set(["hand_number", "shuffler", "partners", "bids", "high_bid", "bidder", "trump", "hand_sizes",
    "trick", "tricks", "tricks_won", "sides", "points", "marks", "leader", "led_suit", "lying_out", "nello", "sitting_out", "last_result"]);
  const trump = view.nello ? "Nel-O (no trump)" : view.trump === null || view.trump === undefined ? "not named" : suitName(view.trump);
  const bid = view.high_bid ? `${escapeHtml(String(view.high_bid))} by ${escapeHtml(ctx.seatName(view.bidder))}` : "none yet";
  const facts = `<div class="facts"><span>Hand ${view.hand_number}</span><span>High bid <b>${bid}</b></span>
    <span>Trump <b>${trump}</b></span><span>Lying out ${view.lying_out}</span>${view.led_suit !== null && view.led_suit !== undefined ? `<span>Led <b>${escapeHtml(suitName(view.led_suit))}</b></span>` : ""}</div>`;
  const side = (s) => (view.partners || []).findIndex((p) => p.includes(s));
  const perSeat = (s) =>
    `<div class="seatline"><span class="badge side${side(s)}">side ${side(s) + 1}</span>${
      view.bids && view.bids[s] !== null && view.bids[s] !== undefined ? `<span class="badge">bid ${escapeHtml(String(view.bids[s]))}</span>` : ""
    }${view.sitting_out === s ? "<span class='badge'>sits out</span>" : ""} tricks ${(view.tricks_won || [])[s] || 0}</div>${
      s === view.seat ? "" : hiddenHand(view.hand_sizes[s])
    }`;
  // one column per side (two), one row per figure: narrow enough for a phone
  const sd = view.sides || [];
  const heads = sd.map((x, i) => `<th><span class="badge side${i}">side ${i + 1}</span><br><small>${x.seats
    .map((s) => escapeHtml(ctx.seatName(s))).join(" & ")}</small></th>`).join("");
  const figures = [["tricks", "tricks"], ["count", "count tiles"], ["taken", "points taken"], ["points", "score"], ["marks", "marks"]];
  const rows = figures.map(([k, say]) => `<tr><th>${say}</th>${sd.map((x) => `<td class="num">${escapeHtml(String(x[k]))}</td>`).join("")}</tr>`).join("");
  const table = sd.length ? `<div class="scroll-x"><table class="list sides"><thead><tr><th></th>${heads}</tr></thead><tbody>${rows}</tbody></table></div>` : "";
  return facts + around(view, ctx, perSeat, trickHTML(view, view.trick, ctx)) + lastTrick(view, ctx) + table + publicFields(view, used);
}

export default { board, describe, ask };
