// The generic game module: what a game with only an engine gets. Its board shows each
// seat's hidden hand and every public field of the view; its actions are the legal
// actions as the engine writes them; its hand-end panel is the generic table of the
// hand_end event's fields (the board at a hand's end is then the view as it stands).
import { around, hiddenHand, publicFields, resultHTML } from "./board.js";

export function board(view, ctx) {
  const sizes = view.hand_sizes;
  let html = "";
  if (Array.isArray(sizes)) {
    html += around(view, ctx, (s) => (s === view.seat ? "" : hiddenHand(sizes[s])), "");
  }
  return html + publicFields(view, new Set(["hand_sizes"])).replace("<details class=\"fields\">", "<details class=\"fields\" open>");
}

// An action in words: the notation with a capital letter.
export function describe(action) {
  return action.charAt(0).toUpperCase() + action.slice(1);
}

// What the seat to act is asked to do: the phase's name.
export function ask(phase) {
  return String(phase).replace(/_/g, " ");
}

// Which legal actions get a button (all of them).
export function actionList(legal) {
  return legal;
}

// The hand_end event's fields, as facts and one row per seat.
export function result(view, end, ctx) {
  return resultHTML(view, end, ctx);
}

export default { board, describe, ask, actionList, result };
