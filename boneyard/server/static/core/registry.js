// Game modules by game id. A game's front end is the module /static/games/<id>.js, whose
// default export may define any of the members below; whatever it leaves out comes from
// the generic module, so a game with only an engine already plays in the browser.
//
//   board(view, ctx)          the table's HTML (ctx: seatName, state, selected, boardWidth, shell, since, ending)
//   describe(action, view)    a legal action in plain words (the notation stays in data-action)
//   ask(phase, view)          what the seat to act is asked to do, e.g. "play a tile to the trick"
//   actionList(legal, ctx)    which legal actions get a button
//   endView(end, view, events) the board's view as a hand ended, made from its hand_end event `end`
//                             (the final position it carries) and `events`, the ended hand's
//                             events still in `view` before it (its last play, to mark); board()
//                             draws it (it has `ended: true`)
//   result(view, end, ctx)    the hand-end panel's details for a hand_end event (the hands left, the
//                             tricks, the winning sets): what the server's sentence does not show
//   tools(ctx) / bind(ctx)    extra controls above the actions (Rummikub's builder) and their events
//   hand(ctx)                 the hand as the module wants it drawn ({tiles, selected, draggable}), or null
//   clickHand(tile, i, ctx)   a hand tile was clicked; true when the module handled it
//   reset()                   a new state arrived: drop any half-built action
//   handMark(tile, view, i, hand)  {cls, label} marking a hand tile (a trump, a joker, the pulled tile)
//   tileButtons               true: actions naming hand tiles also get buttons (else the tiles play them)
//   autoAction(state)         an action the page plays by itself (a forced draw), or null
//
// What happened is told by the server (each state's `log`: one sentence per event of its
// view); the modules draw positions from the view and the events, never from those words.
// Who plays together is the view's `partners` (the game's declared sides).
import * as generic from "./generic.js";

const loaded = new Map();

// The module for a game id, completed with the generic members; never fails (a missing or
// broken game module falls back to the generic one, and says so in the console).
export async function gameModule(id) {
  if (loaded.has(id)) return loaded.get(id);
  let own = {};
  if (/^[a-z0-9_]+$/.test(id)) {
    try {
      own = (await import(`/static/games/${id}.js`)).default || {};
    } catch (e) {
      console.info(`no front-end module for ${id}: the generic one draws it`, e);
    }
  }
  const mod = Object.assign({}, generic.default, own);
  loaded.set(id, mod);
  return mod;
}
