// @ts-check
// reversi-widget front end (anywidget ES module, no imports: it is loaded from a Blob URL).
// Python owns the game: this file only draws the synced traits and sends intents.
// Contract: js/PROTOCOL.md.
//
// render() builds one view out of small parts (players, board, animation, move list,
// review chart, notices, practice, controls, settings). Each part is a factory returning
// { el, update, destroy }: `el` is its element, `update()` redraws it from the model, and
// `destroy()` drops its listeners and timers. A part subscribes to the traits it draws.
//
// The types below are checked by TypeScript on this file as it is (`tsc -p jsconfig.json`,
// no build step): a trait key that is not a trait, or a value of the wrong type, is an error.

// ---------- the protocol's types (js/PROTOCOL.md): every synced trait, and the intents ----------
// A dict trait is `{}` when it does not apply, so each of its fields is optional.

/** @typedef {"black" | "white"} Color */
/** @typedef {{ black?: number, white?: number }} Counts */
/**
 * @typedef {object} Line  the line `analyse()` expects from a square (`lines`)
 * @property {string[]} [line]  the moves, the square first; `"pass"` for a pass
 * @property {string[]} [colors]  whose move each one is
 * @property {string} [note]  how far the line is proven
 * @property {string} [text]  the line in words
 */
/**
 * @typedef {object} ReviewMove  one entry of `review_moves`
 * @property {number} ply
 * @property {string} [label]
 * @property {string} [color]
 * @property {string} [move]
 * @property {string} [best]
 * @property {number} [score]
 * @property {number} [best_score]
 * @property {number} [loss]
 * @property {boolean} [exact]
 * @property {boolean} [bound]
 * @property {boolean} [forced]
 * @property {string} [mark]
 * @property {string} [note]
 * @property {string} [lines_note]
 */
/**
 * @typedef {object} ReviewHere  `review_here`: the reviewed move that led to the position shown
 * @property {string} [best]
 * @property {string} [played]
 * @property {string} [color]
 * @property {string} [note]
 * @property {string[]} [line]
 * @property {string[]} [line_colors]
 * @property {string[]} [played_line]
 * @property {string} [lines_note]
 */
/**
 * @typedef {object} Demo  `demo`: "show me" for the last played move
 * @property {number} [id]
 * @property {number} [ply]
 * @property {string} [move]
 * @property {string} [color]
 * @property {string[][]} [lines]
 */
/**
 * @typedef {object} Opening  `opening`: the named opening the moves follow
 * @property {string} [name]
 * @property {number} [plies]
 * @property {number | null} [left]
 * @property {string} [text]
 */
/**
 * @typedef {object} Branch  one variation of `variations`
 * @property {number} ply
 * @property {boolean} [main]
 * @property {string[]} [moves]
 * @property {number[]} nodes
 */
/** @typedef {{ main?: boolean, nodes?: number[], branches?: Branch[] }} Variations */
/**
 * @typedef {object} Live  `live`: the live evaluation
 * @property {"chance" | "score"} [mode]
 * @property {boolean} [known]
 * @property {number} [black]  Black's share of the bar, 0..1
 * @property {string} [text]
 * @property {string} [note]
 * @property {number} [ply]
 * @property {boolean[]} [course_exact]
 */
/**
 * @typedef {object} ExplorerRow  one move of the Explorer panel
 * @property {string} move
 * @property {string[]} [cells]
 * @property {number} [share]
 * @property {{ label: string, transcript: string }[]} [games]
 */
/**
 * @typedef {object} ExplorerView  `explorer_view`: the Explorer panel
 * @property {"moves" | "empty" | "beyond" | "variant"} [state]
 * @property {string} [title]
 * @property {string} [message]
 * @property {string} [load]
 * @property {string[]} [headings]
 * @property {ExplorerRow[]} [moves]
 */
/**
 * @typedef {object} CoachSummary  `coach_state.summary`, once the line reaches the end
 * @property {string} [text]
 * @property {number} [kept]
 * @property {number} [judged]
 * @property {number} [mistakes]
 * @property {number} [taken_back]
 * @property {{ ply: number, to: number, label: string, note: string }[]} [worst]
 */
/**
 * @typedef {object} CoachState  `coach_state`: a coached game
 * @property {"" | "judging" | "waiting" | "verdict" | "failed"} [state]
 * @property {string} [move]
 * @property {number} [ply]
 * @property {string} [verdict]
 * @property {string} [mark]
 * @property {"good" | "mistake"} [kind]
 * @property {string} [best]
 * @property {string} [color]
 * @property {boolean} [can_retry]
 * @property {boolean} [can_go_on]
 * @property {CoachSummary} [summary]
 */
/**
 * @typedef {object} Config  `config`: the constants the front end draws with, from Python
 * @property {string[]} [animations]
 * @property {Record<string, number>} [animation_ms]
 * @property {string[]} [themes]
 * @property {string[]} [concepts]
 * @property {string[]} [live_evaluations]
 * @property {number} [demo_line_steps]
 * @property {boolean} [report_shown]
 */
/**
 * @typedef {object} PuzzleState  `puzzle_state`: puzzle mode
 * @property {number} [index]
 * @property {number} [count]
 * @property {string} [name]
 * @property {string} [task]
 * @property {string} [source]
 * @property {number} [difficulty]
 * @property {string} [verdict]
 * @property {"" | "right" | "wrong"} [verdict_kind]
 * @property {string[]} [solution]
 * @property {number} [solved]
 * @property {number} [tried]
 * @property {string} [learner]
 * @property {boolean} [at_start]
 * @property {boolean} [can_play_out]
 * @property {boolean} [playing_out]
 */
/**
 * @typedef {object} QuizState  `quiz_state`: square-marking mode
 * @property {string} [question]
 * @property {string[]} [marked]
 * @property {string} [verdict]
 * @property {"" | "right" | "wrong"} [verdict_kind]
 * @property {string[]} [wrong]
 * @property {string[]} [answer]
 * @property {string} [answer_text]
 * @property {number} [checks]
 * @property {boolean} [solved]
 */
/**
 * The settings: Python keywords that the front end may write too.
 * @typedef {object} Settings
 * @property {boolean} show_legal
 * @property {boolean} show_flips
 * @property {boolean} show_coordinates
 * @property {boolean} show_me
 * @property {boolean} practice
 * @property {boolean} show_scores
 * @property {boolean} show_explorer
 * @property {string} concept  `""` or one of `config.concepts`
 * @property {string} live_evaluation  one of `config.live_evaluations`
 * @property {string} animation  one of `config.animations`
 * @property {string} theme  one of `config.themes`
 * @property {number | null} size  board width in px, null: as wide as the cell allows
 * @property {number} shown  the fingerprint of the picture drawn last (marimo only)
 */
/**
 * Every trait the model syncs. The settings above, and what only Python writes.
 * @typedef {object} PythonTraits
 * @property {number} board_size
 * @property {string} discs  `board_size**2` of `X`, `O`, `-`, row by row from a1
 * @property {"" | Color} turn
 * @property {number} ply
 * @property {Record<string, string[]>} legal  legal square -> the squares it flips
 * @property {string} last_move
 * @property {string[]} last_flips
 * @property {Counts} counts
 * @property {Partial<Record<Color, string>>} count_labels
 * @property {Counts} supply
 * @property {string} status
 * @property {string} notice
 * @property {string} notice_kind
 * @property {number} notice_id
 * @property {boolean} game_over
 * @property {string} result
 * @property {string[]} moves
 * @property {Opening} opening
 * @property {Variations} variations
 * @property {boolean} can_undo
 * @property {boolean} can_redo
 * @property {boolean} thinking
 * @property {Partial<Record<Color, string>>} players
 * @property {Record<string, string>} strings  every label shown, in the widget's language
 * @property {Demo} demo
 * @property {string} practice_move
 * @property {string[]} practice_flips
 * @property {string[]} practice_wrong
 * @property {string[]} practice_missed
 * @property {number} practice_mistakes
 * @property {number} practice_moves
 * @property {string[]} hints
 * @property {Record<string, string>} scores  square -> its score, best first
 * @property {Record<string, Line>} lines
 * @property {ReviewMove[]} review_moves
 * @property {ReviewHere} review_here
 * @property {Live} live
 * @property {(number | null)[]} evaluations
 * @property {"" | "hint" | "scores" | "review" | "coach"} busy
 * @property {number} progress
 * @property {boolean} can_review
 * @property {boolean} can_pause
 * @property {Record<string, "primary" | "enabled" | "disabled">} actions
 * @property {string[]} rule_notes
 * @property {ExplorerView} explorer_view
 * @property {Record<string, string>} concept_marks  square -> kind
 * @property {string} concept_note
 * @property {CoachState} coach_state
 * @property {Config} config
 * @property {PuzzleState} puzzle_state
 * @property {QuizState} quiz_state
 * @property {boolean} editing
 * @property {string} position
 * @property {Record<string, string>} fill  square -> CSS colour
 * @property {Record<string, string>} marks  square -> text drawn on it
 * @property {string[][]} arrows  [from, to] square pairs
 * @property {boolean} coach
 * @property {"en" | "ca" | "pl" | "uk"} language
 * @property {boolean} paused
 */
/** @typedef {Settings & PythonTraits} Traits */
/** @typedef {keyof Traits} TraitName */
/** @typedef {keyof Settings} SettingName */
/**
 * A space-separated list of trait names (and `msg:custom`) to listen to: itself when every
 * name is a trait's, else a text naming the first that is not, so that a mistyped name is a
 * type error that says which.
 * @template {string} S
 * @typedef {S extends `${infer A} ${infer B}`
 *   ? (A extends TraitName | "msg:custom" ? (TraitNames<B> extends B ? S : TraitNames<B>) : `${A} is not a trait`)
 *   : (S extends TraitName | "msg:custom" ? S : `${S} is not a trait`)} TraitNames
 */
/**
 * What the front end asks of Python (js/PROTOCOL.md, "Intents"), without the `ply` that
 * `send` adds to every intent.
 * @typedef {{ kind: "move" | "practice_flip" | "edit_square" | "quiz_mark", square: string }
 *   | { kind: PlainIntent }
 *   | { kind: "jump", to: number }
 *   | { kind: "puzzle_next" | "puzzle_retry" | "puzzle_solution" | "puzzle_play_out", puzzle: number }
 *   | { kind: "edit_turn", color: string }
 *   | { kind: "explorer_game", square: string, to: number }
 *   | { kind: "variation_jump" | "variation_promote" | "variation_delete", node: number }} IntentBody
 */
/**
 * The intents that carry nothing but their kind (and `ply`).
 * @typedef {"pass" | "undo" | "redo" | "new_game" | "practice_done" | "practice_reveal" | "hint"
 *   | "review" | "pause" | "resume" | "edit" | "edit_clear" | "edit_start" | "edit_done"
 *   | "edit_cancel" | "quiz_check" | "quiz_clear" | "quiz_reveal" | "coach_retry"
 *   | "coach_go_on"} PlainIntent
 */
/** @typedef {IntentBody & { ply: number }} Intent */
/** @typedef {(message?: unknown) => void} Listener */
/**
 * The anywidget model, as this module uses it.
 * @typedef {object} Model
 * @property {<K extends TraitName>(key: K) => Traits[K] | null | undefined} get
 * @property {<K extends SettingName>(key: K, value: Settings[K]) => void} set  only the settings
 * @property {() => void} save_changes
 * @property {(event: string, fn: Listener) => void} on
 * @property {(event: string, fn: Listener) => void} off
 * @property {(content: Intent) => void} send
 */

const SVG_NS = "http://www.w3.org/2000/svg";
const C = 40; // SVG user units per square; the whole board scales through the viewBox
/** @type {Partial<Record<string, Color>>} */
const DISC = { X: "black", O: "white" };
/** @type {Color[]} */
const COLORS = ["black", "white"];
const FILES = "abcdefghijklmnop";
// Each view loads its own copy of this module, so a module-level counter would restart at 1
// in every view: the count of views lives on the page instead, under a registered symbol.
const VIEW_COUNT = Symbol.for("reversi-widget.view-count");
/** @type {(o: object | null | undefined, k: PropertyKey) => boolean} */
const hasOwn = (o, k) => o != null && Object.hasOwn(o, k);
/** The keys of an object whose keys are known. @template {object} T @param {T} o */
function keysOf(o) { return /** @type {(keyof T)[]} */ (Object.keys(o)); }
/** @type {(v: unknown) => v is Color} */
const isColor = (v) => v === "black" || v === "white";
// The element an event happened in that matches `selector` (itself or its nearest ancestor).
/** @param {Event | null} ev @param {string} selector @returns {Element | null} */
const closest = (ev, selector) => (ev && ev.target instanceof Element ? ev.target.closest(selector) : null);

/** @typedef {Record<string, string | number | boolean | null | undefined>} Attrs */
// Build an HTML element; text always goes in as a text node, never as markup.
/**
 * @template {keyof HTMLElementTagNameMap} T
 * @param {T} tag
 * @param {Attrs} [attrs]  `true` writes an empty attribute, `false`/null/undefined none
 * @param {...(Node | string)} kids
 * @returns {HTMLElementTagNameMap[T]}
 */
function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null && v !== false) el.setAttribute(k, v === true ? "" : String(v));
  for (const k of kids) el.append(k); // append() turns strings into text nodes
  return el;
}
/**
 * @template {keyof SVGElementTagNameMap} T
 * @param {T} tag
 * @param {Record<string, string | number>} [attrs]
 * @returns {SVGElementTagNameMap[T]}
 */
function s(tag, attrs = {}) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}
// Attributes and texts are written only when they change: a move redraws a few squares, not 64.
/** @param {Element} el @param {string} name @param {string} value */
function attr(el, name, value) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}
/** @param {Element} el @param {string} name @param {boolean} on @param {string} [value] */
function flag(el, name, on, value = "") {
  if (on) attr(el, name, value);
  else if (el.hasAttribute(name)) el.removeAttribute(name);
}
/** @param {Node} el @param {string} value */
function text(el, value) {
  if (el.textContent !== value) el.textContent = value;
}
// One redraw for all the traits one update from Python changes: their change events come one
// after the other in the same task, the redraw runs once after them (before the next frame).
/** @param {() => void} fn @returns {() => void} */
function batched(fn) {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => { queued = false; fn(); });
  };
}
/** @type {(v: number, lo: number, hi: number) => number} */
const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));
// FNV-1a: a 32-bit fingerprint of a text, the same in every view.
/** @param {string} text */
function fingerprint(text) {
  let x = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) x = Math.imul(x ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return x >>> 0;
}
// Keys pressed in a control belong to it, not to JupyterLab's notebook shortcuts.
const OWN_KEYS = { "data-lm-suppress-shortcuts": "true" };

/**
 * What every part of one view shares: the model, the labels and the intents.
 * @typedef {ReturnType<typeof viewContext>} Ctx
 */
/** @param {Model} model */
function viewContext(model) {
  const page = /** @type {{ [VIEW_COUNT]?: number }} */ (globalThis);
  page[VIEW_COUNT] = (page[VIEW_COUNT] || 0) + 1;
  /**
   * A trait's value, or `d` while it is null or not there yet: the key must be a trait's, and
   * `d` of its type.
   * @template {TraitName} K
   * @param {K} k
   * @param {Traits[K]} d
   * @returns {Traits[K]}
   */
  const get = (k, d) => { const v = model.get(k); return v == null ? d : v; };
  // Every word shown comes from the `strings` trait, already in the widget's language.
  /** @param {string} k */
  const S = (k) => { const t = get("strings", {})[k]; return typeof t === "string" && t ? t : k; };
  /** @type {[Element, string, string | null][]} */
  const labels = []; // [element, key, attribute or null for text], redrawn when `strings` changes
  return {
    model, get, S,
    uid: `rw${page[VIEW_COUNT]}`, // prefix of this view's element ids
    /**
     * One of Python's constants (`config`), or `d` without it.
     * @template {keyof Config} K
     * @param {K} k
     * @param {NonNullable<Config[K]>} d
     * @returns {NonNullable<Config[K]>}
     */
    config: (k, d) => { const v = get("config", {})[k]; return v == null ? d : v; },
    // Every intent carries the ply it was made in, so Python can refuse stale ones.
    /** @param {IntentBody} intent */
    send: (intent) => model.send({ ...intent, ply: get("ply", 0) }),
    /**
     * Write a setting back to Python (only the settings may be written).
     * @template {SettingName} K
     * @param {K} k
     * @param {Settings[K]} v
     */
    setting: (k, v) => { model.set(k, v); model.save_changes(); },
    /**
     * @template {Element} E
     * @param {E} node
     * @param {string} key  its label in `strings`
     * @param {string | null} [attr]  the attribute it goes in, or null for the text
     * @returns {E}
     */
    L: (node, key, attr = null) => { labels.push([node, key, attr]); return node; },
    applyLabels: () => {
      for (const [node, key, attr] of labels) {
        if (attr) node.setAttribute(attr, S(key));
        else node.textContent = S(key);
      }
    },
    scope: () => scope(model),
    // The parts of one view tell each other what only the view knows (the line on show, a
    // hovered move of the list): "line" carries a line's text, "review-hover" a boolean.
    bus: new EventTarget(),
  };
}

// The listeners and timers of one part, all dropped by destroy().
/** @param {Model} model */
function scope(model) {
  /** @type {(() => void)[]} */
  const offs = [];
  /** @type {Set<ReturnType<typeof setTimeout>>} */
  const timers = new Set();
  return {
    /**
     * Listen to the changes of traits (and `msg:custom`), named in one string: each must be a
     * trait's name.
     * @template {string} N
     * @param {N extends TraitNames<N> ? N : TraitNames<N>} names
     * @param {Listener} fn
     */
    on(names, fn) {
      for (const k of names.split(" ")) {
        const ev = k.startsWith("msg:") ? k : `change:${k}`;
        model.on(ev, fn);
        offs.push(() => model.off(ev, fn));
      }
    },
    /** @param {() => void} fn @param {number} ms */
    later(fn, ms) { const t = setTimeout(() => { timers.delete(t); fn(); }, ms); timers.add(t); return t; },
    /** @param {ReturnType<typeof setTimeout>} t */
    cancel(t) { clearTimeout(t); timers.delete(t); },
    destroy() {
      for (const off of offs.splice(0)) off();
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
/** @typedef {ReturnType<typeof scope>} Scope */
/** @typedef {ReturnType<Scope["later"]>} Timer */

// ---------- players: one card per colour (name on its own line, count, disc supply), and
// the rules that differ from the classic game, shown for the whole game ----------
/** @param {Ctx} ctx */
function players(ctx) {
  const { get, S, L } = ctx;
  const life = ctx.scope();
  const grid = h("div", { class: "rw-players" });
  const rules = h("div", { class: "rw-rules", "data-role": "rules", hidden: true });
  const el = h("div", { class: "rw-head" }, grid, rules);
  /** @type {Partial<Record<Color, { el: HTMLElement, color: HTMLElement, name: HTMLElement, count: HTMLElement, supply: HTMLElement }>>} */
  const cards = {};
  for (const c of COLORS) {
    const card = {
      el: h("div", { class: "rw-player", "data-role": "player", "data-color": c }),
      color: L(h("span", { class: "rw-color" }), c),
      name: h("span", { class: "rw-name", "data-role": "player-name" }),
      count: h("span", { class: "rw-count", "data-role": "count" }),
      supply: h("span", { class: "rw-supply", "data-role": "supply" }),
    };
    card.el.append(h("span", { class: "rw-chip", "aria-hidden": "true" }), card.color, card.count, card.name, card.supply);
    cards[c] = card;
    grid.append(card.el);
  }
  function update() {
    const names = get("players", {}), counts = get("counts", {}), supply = get("supply", {});
    const countLabels = get("count_labels", {}); // "12 discs", "12 pionków": plurals come from Python
    const turn = get("turn", "");
    for (const c of COLORS) {
      const card = cards[c];
      if (!card) continue;
      card.name.textContent = names[c] == null ? "" : String(names[c]);
      card.name.title = card.name.textContent; // the whole name, also where the card is narrow
      card.count.textContent = String(counts[c] ?? 0);
      const countText = countLabels[c] ? String(countLabels[c]) : card.count.textContent;
      const hasSupply = !!supply && supply[c] != null;
      card.supply.textContent = hasSupply ? `${supply[c]} ${S("supply")}` : "";
      card.supply.hidden = !hasSupply;
      flag(card.el, "data-turn", turn === c);
      card.count.setAttribute("title", countText);
      card.el.setAttribute("aria-label", [S(c), card.name.textContent, countText,
        card.supply.textContent, turn === c ? S("to_move") : ""].filter(Boolean).join(", "));
    }
    const notes = (get("rule_notes", []) || []).map((note) => String(note));
    rules.replaceChildren(...notes.map((note) => h("span", { class: "rw-rule" }, note)));
    rules.hidden = !notes.length;
  }
  life.on("players counts count_labels supply turn rule_notes", batched(update));
  return { el, update, destroy: life.destroy };
}

// ---------- board: the SVG grid, its squares, hover and keyboard ----------
// One part made of the functions below, which share its state (`Board`): the grid
// (boardGrid), what each square shows (drawSquares), the flips a move would make
// (drawPreview), the best line as ghost discs (drawGhosts), the keyboard cursor (drawCursor),
// the arrows (drawArrows), and what the pointer (boardPointer) and the keys (boardKeys) do.

/**
 * @typedef {object} Square  one square of the grid, and where it is drawn
 * @property {string} name
 * @property {SVGGElement} g
 * @property {SVGTextElement} mark
 * @property {SVGRectElement} fill
 * @property {SVGTextElement} evalText
 * @property {number} x
 * @property {number} y
 */
/**
 * The board part (`el`, `build`, `update`, `destroy`) and the state its functions share.
 * @typedef {object} Board
 * @property {Ctx} ctx
 * @property {HTMLElement} el
 * @property {SVGSVGElement} svg
 * @property {number} n  squares per side
 * @property {Square[]} squares
 * @property {Map<string, number>} byName  square name -> its index in `squares`
 * @property {number} cursor  the keyboard cursor's square
 * @property {string | null} hover  the square under the pointer
 * @property {boolean} kbd  keyboard mode: show the cursor and preview its flips
 * @property {boolean} reviewHover  the move list's marked current move is hovered or focused
 * @property {SVGRectElement | null} cursorEl
 * @property {SVGGElement | null} arrowsLayer
 * @property {SVGGElement | null} ghostLayer
 * @property {SVGGElement[]} previewed  the squares marked with data-preview
 * @property {string | null} lineShown  the words of the line on show, as last told on the bus
 * @property {(board: Board) => void} onBuild  runs after each rebuild (new size, coordinates on or off)
 * @property {() => void} build
 * @property {() => void} update
 * @property {() => void} destroy
 */

/** @param {Ctx} ctx @param {{ onBuild: (board: Board) => void }} options @returns {Board} */
function board(ctx, { onBuild }) {
  const life = ctx.scope();
  const svg = s("svg", {
    class: "rw-board", role: "grid", tabindex: "0", "data-role": "board", ...OWN_KEYS,
  });
  ctx.L(svg, "board", "aria-label");
  /** @type {Board} */
  const b = {
    ctx, el: h("div", { class: "rw-board-wrap" }, svg), svg, n: 0, squares: [], byName: new Map(),
    cursor: 0, hover: null, kbd: false, reviewHover: false, cursorEl: null, arrowsLayer: null, ghostLayer: null,
    previewed: [], lineShown: null, onBuild,
    build: () => boardGrid(b),
    update: () => { drawSquares(b); drawCursor(b); },
    destroy: life.destroy,
  };
  ctx.bus.addEventListener("review-hover", (ev) => { b.reviewHover = !!(/** @type {CustomEvent} */ (ev)).detail; drawGhosts(b); });
  boardPointer(b);
  boardKeys(b, life);

  // A new game (an empty line) starts the keyboard cursor from the centre again.
  let hadMoves = ctx.get("moves", []).length > 0;
  function onMoves() {
    const has = ctx.get("moves", []).length > 0;
    if (hadMoves && !has) { b.cursor = centre(b); drawCursor(b); }
    hadMoves = has;
  }

  const redraw = batched(() => drawSquares(b));
  life.on("board_size show_coordinates", b.build);
  life.on("discs legal show_legal last_move last_flips marks fill hints scores lines review_here coach_state concept concept_marks", redraw);
  life.on("practice_move practice_flips practice_wrong practice_missed quiz_state", redraw);
  life.on("show_flips", () => drawPreview(b));
  life.on("arrows", () => drawArrows(b));
  life.on("moves", onMoves);
  return b;
}

/** The upper-left centre square. @param {Board} b */
const centre = (b) => (b.n / 2 - 1) * b.n + b.n / 2 - 1;

// The concept overlay's marker in a square's top-left corner, clear of the disc: a small disc
// (its right half repainted for "both") and a cross; CSS shows what the square's kind needs.
// The frame of the other kinds lies under the disc (rw-concept-frame).
function conceptBadge() {
  const r = C * 0.1, x = C * 0.16, y = C * 0.16, k = C * 0.09;
  const badge = s("g", { class: "rw-concept", "aria-hidden": "true" });
  badge.append(
    s("circle", { class: "rw-concept-pip", cx: x, cy: y, r }),
    s("path", { class: "rw-concept-half", d: `M${x},${y - r}A${r},${r} 0 0 1 ${x},${y + r}Z` }),
    s("path", { class: "rw-concept-cross", d: `M${x - k},${y - k}L${x + k},${y + k}M${x + k},${y - k}L${x - k},${y + k}` }));
  return badge;
}

// The grid: frame, lines, coordinates and one group per square, built anew for each size.
/** @param {Board} b */
function boardGrid(b) {
  const { get } = b.ctx;
  const { svg } = b;
  const uid = b.ctx.uid;
  const n = clamp(get("board_size", 8) | 0, 4, 16);
  const resized = n !== b.n;
  b.n = n;
  const coords = get("show_coordinates", true);
  const m = coords ? C * 0.6 : C * 0.2; // frame width; holds the coordinates when shown
  const W = n * C + 2 * m;
  svg.setAttribute("viewBox", `0 0 ${W} ${W}`);
  svg.replaceChildren();
  b.squares = [];
  b.byName.clear();

  const defs = s("defs");
  const marker = s("marker", { id: `${uid}-arrow`, viewBox: "0 0 10 10", refX: "5", refY: "5", markerWidth: "4", markerHeight: "4", orient: "auto-start-reverse" });
  marker.append(s("path", { d: "M0,0 L10,5 L0,10 z", class: "rw-arrowhead" }));
  const sheen = s("radialGradient", { id: `${uid}-sheen`, cx: "0.35", cy: "0.3", r: "0.75" });
  sheen.append(s("stop", { offset: "0", class: "rw-sheen-a" }), s("stop", { offset: "1", class: "rw-sheen-b" }));
  defs.append(marker, sheen);

  const grid = [];
  for (let i = 0; i <= n; i++) grid.push(`M${m + i * C},${m}v${n * C}`, `M${m},${m + i * C}h${n * C}`);
  svg.append(defs,
    s("rect", { class: "rw-frame", x: 0, y: 0, width: W, height: W, rx: C * 0.18 }),
    s("rect", { class: "rw-field", x: m, y: m, width: n * C, height: n * C }));
  const under = s("g", { class: "rw-fills" });
  svg.append(under, s("path", { class: "rw-grid", d: grid.join("") }));
  if (n >= 8) { // the four small dots of a real Othello board
    const pts = s("g", { class: "rw-stars", "aria-hidden": "true" });
    for (const a of [2, n - 2]) for (const c of [2, n - 2]) pts.append(s("circle", { cx: m + a * C, cy: m + c * C, r: C * 0.05 }));
    svg.append(pts);
  }
  if (coords) {
    // Bigger letters on big boards, whose squares are drawn smaller.
    const cg = s("g", { class: "rw-coords", "aria-hidden": "true", "font-size": n >= 12 ? 16 : 13 });
    for (let i = 0; i < n; i++) {
      const col = s("text", { x: m + (i + 0.5) * C, y: m / 2 });
      col.textContent = FILES[i];
      const row = s("text", { x: m / 2, y: m + (i + 0.5) * C });
      row.textContent = String(i + 1);
      cg.append(col, row);
    }
    svg.append(cg);
  }
  /** @type {(x: number, y: number) => string} */
  const at = (x, y) => `translate(${m + x * C},${m + y * C})`;
  for (let r = 0; r < n; r++) {
    const row = s("g", { role: "row" });
    for (let c = 0; c < n; c++) {
      const name = FILES[c] + (r + 1);
      const g = s("g", { class: "rw-sq", role: "gridcell", id: `${uid}-${name}`, "data-square": name, "data-disc": "empty", transform: at(c, r) });
      const fill = s("rect", { class: "rw-fill", x: 0, y: 0, width: C, height: C, transform: at(c, r) });
      under.append(fill); // fills sit under the grid lines
      const disc = s("g", { class: "rw-disc" });
      disc.append(s("circle", { class: "rw-disc-base", cx: C / 2, cy: C / 2, r: C * 0.41 }),
        s("circle", { class: "rw-disc-sheen", cx: C / 2, cy: C / 2, r: C * 0.41, fill: `url(#${uid}-sheen)` }));
      const mark = s("text", { class: "rw-mark", x: C / 2, y: C / 2 });
      const evalText = s("text", { class: "rw-eval", x: C / 2, y: C / 2 });
      g.append(
        s("rect", { class: "rw-cell", x: 0, y: 0, width: C, height: C }),
        s("rect", { class: "rw-concept-frame", x: C * 0.07, y: C * 0.07, width: C * 0.86, height: C * 0.86, rx: C * 0.14 }),
        s("circle", { class: "rw-dot", cx: C / 2, cy: C / 2, r: C * 0.13 }),
        disc,
        conceptBadge(),
        s("circle", { class: "rw-ring", cx: C / 2, cy: C / 2, r: C * 0.24 }),
        s("circle", { class: "rw-hint", cx: C / 2, cy: C / 2, r: C * 0.14 }),
        s("circle", { class: "rw-last", cx: C / 2, cy: C / 2, r: C * 0.085 }),
        s("circle", { class: "rw-hint-ring", cx: C / 2, cy: C / 2, r: C * 0.4 }),
        s("circle", { class: "rw-review-ring", cx: C / 2, cy: C / 2, r: C * 0.36 }),
        evalText,
        mark);
      row.append(g);
      b.byName.set(name, b.squares.length);
      b.squares.push({ name, g, mark, fill, evalText, x: m + c * C, y: m + r * C });
    }
    svg.append(row);
  }
  b.arrowsLayer = s("g", { class: "rw-arrows", "aria-hidden": "true" });
  b.ghostLayer = s("g", { class: "rw-ghosts", "data-role": "ghosts", "aria-hidden": "true" });
  b.cursorEl = s("rect", { class: "rw-cursor", x: 2, y: 2, width: C - 4, height: C - 4, rx: 4 });
  svg.append(b.arrowsLayer, b.ghostLayer, b.cursorEl);
  b.cursor = resized ? centre(b) : clamp(b.cursor, 0, n * n - 1);
  drawSquares(b);
  drawArrows(b);
  drawCursor(b);
  b.onBuild(b);
}

// Each square's disc, marks and aids, and its words for screen readers.
/** @param {Board} b */
function drawSquares(b) {
  const { get, S } = b.ctx;
  const discs = get("discs", "");
  const legal = get("legal", {});
  const showLegal = get("show_legal", true);
  const last = get("last_move", "");
  const flipped = new Set(get("last_flips", []));
  const marks = get("marks", {});
  const fills = get("fill", {});
  const placed = get("practice_move", "");
  const turned = new Set(get("practice_flips", []));
  const wrong = new Set(get("practice_wrong", []));
  const missed = new Set(get("practice_missed", []));
  const hints = new Set(get("hints", []));
  // The move that led here, reviewed (or marked by the coach, waiting for the learner): its best square.
  const coached = get("coach_state", {}) || {};
  /** @type {ReviewHere | CoachState} */
  const reviewed = get("review_here", {})?.best ? get("review_here", {}) : coached.state === "waiting" ? coached : {};
  const scores = get("scores", {}) || {};
  /** @param {string} name */
  const scoreOf = (name) => (hasOwn(scores, name) ? String(scores[name]) : "");
  const ranked = Object.keys(scores); // Python sends the scores best first
  const bestScore = ranked.length ? scoreOf(ranked[0]) : null;
  const concepts = get("concept_marks", {}) || {};
  const concept = String(get("concept", "") || "");
  const lines = get("lines", {}) || {};
  const quiz = get("quiz_state", {}) || {};
  const quizMarked = new Set(quiz.marked || []);
  const quizWrong = new Set(quiz.wrong || []);
  const quizAnswer = new Set(quiz.answer || []);
  b.squares.forEach(({ name, g, mark, fill, evalText }, i) => {
    const disc = DISC[discs[i]] || "empty";
    const isLegal = showLegal && hasOwn(legal, name);
    attr(g, "data-disc", disc);
    flag(g, "data-legal", isLegal);
    flag(g, "data-last", name === last);
    flag(g, "data-flipped", flipped.has(name));
    flag(g, "data-practice", name === placed || turned.has(name), name === placed ? "placed" : "flipped");
    flag(g, "data-practice-mark", wrong.has(name) || missed.has(name), wrong.has(name) ? "wrong" : "missed");
    flag(g, "data-hint", hints.has(name));
    const reviewBest = reviewed.best === name;
    flag(g, "data-review-best", reviewBest, String(reviewed.color || ""));
    const score = scoreOf(name);
    flag(g, "data-score", !!score, score);
    flag(g, "data-score-best", !!score && score === bestScore);
    text(evalText, score);
    attr(evalText, "data-len", String(Math.min(score.length, 4)));
    const written = marks[name] == null ? "" : String(marks[name]);
    text(mark, written);
    attr(mark, "data-len", String(Math.min(written.length, 4)));
    if (written.length > 4) { // long marks (Python allows 12 chars) are squeezed into the square
      attr(mark, "textLength", String(C * 0.9));
      attr(mark, "lengthAdjust", "spacingAndGlyphs");
    } else flag(mark, "textLength", false);
    const colour = fills[name] ? String(fills[name]) : "";
    if (fill.dataset.fill !== colour) { // invalid colours are dropped by the browser
      fill.dataset.fill = colour;
      fill.style.fill = colour;
    }
    const words = [name, S(disc)];
    if (isLegal) words.push(S("legal"), `${S("flips")} ${(legal[name] || []).length}`);
    if (name === last) words.push(S("last_move"));
    else if (flipped.has(name)) words.push(S("flipped"));
    if (wrong.has(name)) words.push(S("practice_wrong"));
    else if (missed.has(name)) words.push(S("practice_missed"));
    if (score) words.push(`${S("score")} ${score}`);
    if (hints.has(name)) words.push(S("hint_move"));
    if (hasOwn(lines, name) && lines[name]?.text) words.push(String(lines[name].text)); // the line, for screen readers
    if (reviewBest) words.push(`${S(String(reviewed.color || ""))}: ${S("review_best")}`);
    if (written) words.push(written);
    const kind = hasOwn(concepts, name) ? String(concepts[name]) : "";
    flag(g, "data-concept-mark", !!kind, kind);
    if (kind) words.push(`${S(`concept_${concept}`)}: ${S(isColor(kind) ? kind : `concept_kind_${kind}`)}`);
    // Square-marking mode: the learner's marks, and after Check or Show the answer what they are.
    const marked = quizMarked.has(name);
    const result = quizWrong.has(name) ? "wrong" : quizAnswer.has(name) && !marked ? "missed" : "";
    flag(g, "data-quiz", marked, "marked");
    flag(g, "data-quiz-result", !!result, result);
    if (marked) words.push(S("quiz_marked"));
    if (result) words.push(S(result === "wrong" ? "quiz_mark_wrong" : "quiz_mark_missed"));
    attr(g, "aria-label", words.join(", "));
  });
  drawPreview(b);
}

/** The square under the pointer, else the keyboard cursor's while the board has the focus. @param {Board} b */
function pointedSquare(b) {
  const { squares } = b;
  return b.hover || (b.kbd && document.activeElement === b.svg && squares[b.cursor] ? squares[b.cursor].name : null);
}

// Hover, or the keyboard cursor, previews what a legal move would flip.
/** @param {Board} b */
function drawPreview(b) {
  const { get } = b.ctx;
  for (const g of b.previewed) g.removeAttribute("data-preview");
  b.previewed = [];
  drawGhosts(b);
  const { squares } = b;
  const target = pointedSquare(b);
  const flips = target && get("show_flips", true) ? get("legal", {})[target] : null;
  if (!Array.isArray(flips)) return;
  /** @param {string} name @param {string} kind */
  const mark = (name, kind) => {
    const i = b.byName.get(name);
    if (i == null) return;
    squares[i].g.setAttribute("data-preview", kind);
    b.previewed.push(squares[i].g);
  };
  const placed = /** @type {string} */ (target);
  mark(placed, "place");
  for (const f of flips) mark(f, "flip");
}

// The best line (`lines`, `review_here`): numbered ghost discs in the movers' colours on the
// empty squares it plays, a pass unnumbered. The scored square under the pointer or the
// keyboard cursor shows its line, else the marked move hovered in the move list its best
// line, else the hinted move its line; its words go under the board (bus "line").
/** @param {Board} b @returns {Line | null} */
function shownLine(b) {
  const { get } = b.ctx;
  const lines = get("lines", {}) || {};
  const target = pointedSquare(b);
  if (target && hasOwn(lines, target)) return lines[target];
  const here = get("review_here", {}) || {};
  if (b.reviewHover && Array.isArray(here.line)) return { line: here.line, colors: here.line_colors, text: "" };
  const hints = get("hints", []) || [];
  return hints.length && hasOwn(lines, hints[0]) ? lines[hints[0]] : null;
}
/** @param {Board} b */
function drawGhosts(b) {
  const { ghostLayer } = b;
  if (!ghostLayer) return;
  ghostLayer.replaceChildren();
  const shown = shownLine(b);
  const discs = b.ctx.get("discs", "");
  const names = shown && Array.isArray(shown.line) ? shown.line : [];
  const colors = shown && Array.isArray(shown.colors) ? shown.colors : [];
  let number = 0;
  names.forEach((name, k) => {
    if (name === "pass") return;
    number += 1;
    const i = b.byName.get(name);
    if (i == null || (DISC[discs[i]] || "empty") !== "empty") return;
    const { x, y } = b.squares[i];
    const color = isColor(colors[k]) ? colors[k] : "black";
    const ghost = s("g", { class: "rw-ghost", "data-ghost": String(number), "data-ghost-square": name, "data-color": color });
    const label = s("text", { class: "rw-ghost-num", x: x + C / 2, y: y + C / 2 });
    label.textContent = String(number);
    ghost.append(s("circle", { class: "rw-ghost-disc", cx: x + C / 2, cy: y + C / 2, r: C * 0.3 }), label);
    ghostLayer.append(ghost);
  });
  const words = shown?.text ? String(shown.text) : "";
  if (words !== b.lineShown) {
    b.lineShown = words;
    b.ctx.bus.dispatchEvent(new CustomEvent("line", { detail: words }));
  }
}

/** @param {Board} b */
function drawCursor(b) {
  const sq = b.squares[b.cursor];
  if (!b.cursorEl || !sq) return;
  b.cursorEl.setAttribute("transform", sq.g.getAttribute("transform") || "");
  b.svg.setAttribute("aria-activedescendant", sq.g.id);
  b.svg.classList.toggle("rw-kbd", b.kbd);
  drawPreview(b);
}

// Annotations: arrows between square centres, stopping short so the discs' middles show.
/** @param {Board} b */
function drawArrows(b) {
  const { arrowsLayer } = b;
  if (!arrowsLayer) return;
  arrowsLayer.replaceChildren();
  /** @param {string} name @returns {[number, number] | null} */
  const middle = (name) => {
    const i = b.byName.get(name);
    return i == null ? null : [b.squares[i].x + C / 2, b.squares[i].y + C / 2];
  };
  for (const pair of b.ctx.get("arrows", [])) {
    if (!Array.isArray(pair) || pair.length < 2) continue;
    const p = middle(pair[0]), q = middle(pair[1]);
    if (!p || !q || (p[0] === q[0] && p[1] === q[1])) continue;
    const dx = q[0] - p[0], dy = q[1] - p[1], len = Math.hypot(dx, dy);
    const k0 = (C * 0.2) / len, k1 = (C * 0.28) / len;
    arrowsLayer.append(s("line", {
      class: "rw-arrow", "data-from": pair[0], "data-to": pair[1],
      x1: p[0] + dx * k0, y1: p[1] + dy * k0, x2: q[0] - dx * k1, y2: q[1] - dy * k1,
      "marker-end": `url(#${b.ctx.uid}-arrow)`,
    }));
  }
}

// Any square is sent: Python explains refusals. While a practice disc waits for its flips,
// a click turns (or turns back) the disc on that square instead.
// In the position editor a click cycles the square's disc instead.
// While a quiz is open (square-marking mode) a click marks or unmarks the square instead.
/** @param {Board} b @param {string} name */
function playSquare(b, name) {
  const { get, send } = b.ctx;
  const quizOpen = !!get("quiz_state", {})?.question;
  send({
    kind: quizOpen ? "quiz_mark" : get("editing", false) ? "edit_square" : get("practice_move", "") ? "practice_flip" : "move",
    square: name,
  });
}

// A mouse or a pen plays as its button goes down: the press itself is no longer part of the
// wait. A touch plays on the tap (a finger that goes on to scroll the page plays nothing);
// a click no pointer made (detail 0: a keyboard's, a screen reader's, a script's) plays too.
/** @param {Board} b */
function boardPointer(b) {
  const { svg } = b;
  /** @param {Event} ev @returns {Element | null} */
  const squareOf = (ev) => { const g = closest(ev, "[data-square]"); return g && svg.contains(g) ? g : null; };
  let pressed = false;
  /** @param {Element} g */
  function choose(g) {
    const name = g.getAttribute("data-square") || "";
    b.cursor = b.byName.get(name) ?? b.cursor;
    b.kbd = false;
    drawCursor(b);
    playSquare(b, name);
  }
  svg.addEventListener("pointerdown", (ev) => {
    const g = ev.pointerType === "touch" || ev.button !== 0 ? null : squareOf(ev);
    pressed = !!g;
    if (g) choose(g);
  });
  svg.addEventListener("click", (ev) => {
    const played = pressed && ev.detail > 0; // the click that ends a press already played
    pressed = false;
    const g = squareOf(ev);
    if (g && !played) choose(g);
  });
  svg.addEventListener("pointerover", (ev) => {
    const g = squareOf(ev);
    const name = g ? g.getAttribute("data-square") : null;
    if (name !== b.hover) { b.hover = name; drawPreview(b); }
  });
  svg.addEventListener("pointerleave", () => { b.hover = null; drawPreview(b); });
  svg.addEventListener("pointerdown", () => { b.kbd = false; svg.classList.remove("rw-kbd"); });
  svg.addEventListener("blur", () => drawPreview(b));
}

// The keys: arrows, Home and End move the cursor, a file letter or a rank number jumps to its
// column or row, Enter or Space plays the cursor's square, U and R undo and redo.
/** @param {Board} b @param {Scope} life */
function boardKeys(b, life) {
  const { send } = b.ctx;
  let digits = "";
  /** @type {Timer | null} */
  let digitTimer = null;
  /** @type {Record<string, [number, number]>} */
  const steps = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  b.svg.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const { n, cursor } = b;
    const k = ev.key;
    const r = Math.floor(cursor / n), c = cursor % n;
    const file = k.length === 1 ? FILES.indexOf(k.toLowerCase()) : -1;
    let handled = true;
    if (hasOwn(steps, k)) b.cursor = clamp(r + steps[k][0], 0, n - 1) * n + clamp(c + steps[k][1], 0, n - 1);
    else if (k === "Home") b.cursor = r * n;
    else if (k === "End") b.cursor = r * n + n - 1;
    else if (k === "Enter" || k === " ") playSquare(b, b.squares[cursor].name);
    else if (k === "u" || k === "U") send({ kind: "undo" });
    else if (k === "r" || k === "R") send({ kind: "redo" });
    else if (file >= 0 && file < n) b.cursor = r * n + file; // typed file letter: jump to that column
    else if (/^[0-9]$/.test(k)) { // typed rank (one or two digits): jump to that row
      digits += k;
      if (digitTimer) life.cancel(digitTimer);
      digitTimer = life.later(() => { digits = ""; }, 900);
      let row = Number(digits);
      if (row < 1 || row > n) { digits = k; row = Number(k); }
      if (row >= 1 && row <= n) b.cursor = (row - 1) * n + c;
    } else handled = false;
    if (!handled) return;
    ev.preventDefault();
    ev.stopPropagation();
    b.kbd = true;
    drawCursor(b);
  });
}

// ---------- animation: flips in sequence, and "show me" (visual only: data-disc is final) ----------
/** @param {Ctx} ctx @param {Board} boardPart */
function animation(ctx, boardPart) {
  const { get } = ctx;
  const life = ctx.scope();
  const stepMs = () => Number(ctx.config("animation_ms", {})[get("animation", "normal")]) || 0;
  const reducedMotion = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
  const squares = () => boardPart.squares;
  /** @param {string} name */
  const gOf = (name) => { const i = boardPart.byName.get(name); return i == null ? null : squares()[i].g; };
  /** @type {(n: number, p: number) => (i: number) => number} */
  const distance = (n, p) => (i) => Math.max(Math.abs(Math.floor(i / n) - Math.floor(p / n)), Math.abs((i % n) - (p % n)));
  /** @type {string | null} */
  let drawn = null; // the discs drawn now: what the next change animates from

  /** @type {Timer | null} */
  let animTimer = null;
  function clearAnims() {
    if (animTimer) life.cancel(animTimer);
    animTimer = null;
    for (const { g } of squares()) {
      if (g.hasAttribute("data-anim")) {
        g.removeAttribute("data-anim");
        g.classList.remove("rw-anim");
        g.removeAttribute("data-from");
        g.style.removeProperty("--rw-delay");
        g.style.removeProperty("--rw-dur");
      }
    }
  }
  /** @param {SVGGElement} g @param {string} kind @param {string} from @param {number} delay @param {number} dur */
  function startAnim(g, kind, from, delay, dur) {
    g.removeAttribute("data-demo-hold");
    g.setAttribute("data-anim", kind);
    g.setAttribute("data-from", from);
    g.classList.add("rw-anim");
    g.style.setProperty("--rw-delay", `${delay}ms`);
    g.style.setProperty("--rw-dur", `${dur}ms`);
  }
  /** @param {string | null} prev @param {string} next */
  function animate(prev, next) {
    clearAnims();
    const dur = stepMs();
    const n = boardPart.n;
    if (!dur || reducedMotion() || !prev || prev.length !== next.length || prev.length !== n * n) return;
    const changed = [];
    for (let i = 0; i < next.length; i++) if (prev[i] !== next[i]) changed.push(i);
    if (!changed.length) return;
    // One placed disc + flips = a move: flip in sequence, nearest first. Anything else
    // (undo, jump, new game) changes all at once.
    const placed = changed.filter((i) => prev[i] === "-" && next[i] !== "-");
    const isMove = placed.length === 1 && changed.every((i) => i === placed[0] || (prev[i] !== "-" && next[i] !== "-"));
    let order = changed;
    if (isMove) {
      const dist = distance(n, placed[0]);
      order = [placed[0], ...changed.filter((i) => i !== placed[0]).sort((a, b) => dist(a) - dist(b))];
    }
    void boardPart.svg.getBoundingClientRect(); // restart CSS animations cut short by clearAnims()
    order.forEach((i, k) => {
      const kind = prev[i] === "-" ? "place" : next[i] === "-" ? "remove" : "flip";
      startAnim(squares()[i].g, kind, DISC[prev[i]] || "empty", isMove ? k * dur : 0, dur);
    });
    animTimer = life.later(clearAnims, (isMove ? order.length : 1) * dur + 60);
  }

  // "Show me": Python sends `demo` = {id, ply, move, color, lines}; each line runs from the
  // move to its closing disc (the last square). The disc lands, each line is lit in turn
  // (data-demo-line on its squares, data-demo-closer on the closing disc), then the flanked
  // discs flip. Until their turn they are painted in their old colour (data-demo-hold).
  // The board sits in its view's root from the start (render), and a demo needs a view.
  const root = () => /** @type {Element} */ (boardPart.el.closest(".reversi-widget"));
  let demoSeen = get("demo", {})?.id ?? null; // a fresh view does not replay an old walk-through
  let demoActive = false;
  /** @type {Timer[]} */
  let demoTimers = [];
  /** @type {Set<SVGGElement>} */
  let demoMarked = new Set();
  function clearDemo() {
    for (const t of demoTimers) life.cancel(t);
    demoTimers = [];
    for (const g of demoMarked) {
      for (const a of ["data-demo-line", "data-demo-closer", "data-demo-hold", "data-demo-move"]) g.removeAttribute(a);
    }
    demoMarked = new Set();
    demoActive = false;
    const r = root();
    if (r) r.removeAttribute("data-demo");
  }
  /** @param {string} name @param {string} attr @param {string} [value] */
  function demoMark(name, attr, value = "") {
    const g = gOf(name);
    if (!g) return;
    g.setAttribute(attr, value);
    demoMarked.add(g);
  }
  /** @param {...string} attrs */
  const demoUnmark = (...attrs) => { for (const g of demoMarked) for (const a of attrs) g.removeAttribute(a); };
  // A demo belongs to the position after its move, or after forced passes that followed it.
  /** @param {Demo} demo */
  function demoFits(demo) {
    const ply = get("ply", 0), moves = get("moves", []);
    if (typeof demo.ply !== "number" || demo.ply > ply || moves[demo.ply - 1] !== demo.move) return false;
    for (let i = demo.ply; i < ply; i++) if (moves[i] !== "pass") return false;
    return true;
  }
  function runDemo() { // true when a new demo for the shown position took over the drawing
    const demo = get("demo", {});
    if (!demo || demo.id == null || demo.id === demoSeen || !demoFits(demo)) return false;
    demoSeen = demo.id;
    const move = String(demo.move); // demoFits: the move of the line at demo.ply
    clearDemo();
    clearAnims();
    if (!get("show_me", false) || !Array.isArray(demo.lines)) return false;
    const lines = demo.lines.filter((l) => Array.isArray(l) && l.length >= 2);
    /** @type {(line: string[], k: number) => void} */
    const markLine = (line, k) => line.forEach((sq, j) => {
      demoMark(sq, j === line.length - 1 ? "data-demo-closer" : "data-demo-line", String(k));
    });
    demoActive = true;
    demoMark(move, "data-demo-move");
    const dur = stepMs();
    if (!dur || reducedMotion()) { // no motion: the final position at once, every line lit
      lines.forEach(markLine);
      root().setAttribute("data-demo", "final");
      return true;
    }
    const from = demo.color === "black" ? "white" : "black";
    const flips = [...new Set(lines.flatMap((l) => l.slice(0, -1)))];
    for (const sq of flips) demoMark(sq, "data-demo-hold", from);
    demoMark(move, "data-demo-hold", "empty");
    root().setAttribute("data-demo", "place");
    /** @type {(ms: number, fn: () => void) => void} */
    const at = (ms, fn) => { demoTimers.push(life.later(fn, ms)); };
    /** @type {(name: string, kind: string, delay: number) => void} */
    const play = (name, kind, delay) => { const g = gOf(name); if (g) startAnim(g, kind, kind === "place" ? "empty" : from, delay, dur); };
    play(move, "place", 0);
    const lineSteps = Number(ctx.config("demo_line_steps", 0)) || 0;
    lines.forEach((line, k) => {
      at(dur * (1 + lineSteps * k), () => {
        demoUnmark("data-demo-line", "data-demo-closer");
        markLine(line, k);
        root().setAttribute("data-demo", `line-${k}`);
      });
    });
    const flipAt = dur * (1 + lineSteps * lines.length);
    at(flipAt, () => {
      demoUnmark("data-demo-line", "data-demo-closer");
      root().setAttribute("data-demo", "flip");
      void boardPart.svg.getBoundingClientRect();
      const n = boardPart.n;
      const dist = distance(n, boardPart.byName.get(move) ?? 0);
      /** @param {string} name */
      const index = (name) => boardPart.byName.get(name) ?? 0;
      [...flips].sort((a, b) => dist(index(a)) - dist(index(b))).forEach((sq, k) => { play(sq, "flip", k * dur); });
    });
    at(flipAt + flips.length * dur + 60, () => { clearDemo(); clearAnims(); });
    return true;
  }
  function onDiscs() {
    const next = get("discs", "");
    // The demo and the discs arrive in one update, in either order: the demo, once started
    // for this position, owns the drawing.
    const demo = get("demo", {}) || {};
    const demoOwns = runDemo() || (demoActive && demo.id === demoSeen && demoFits(demo));
    if (!demoOwns) { clearDemo(); animate(drawn, next); }
    drawn = next;
  }
  // After the board is rebuilt its squares are new: what it shows is the new starting point.
  function restart() { clearDemo(); clearAnims(); drawn = get("discs", ""); }
  life.on("discs", onDiscs);
  life.on("demo", () => { if (runDemo()) drawn = get("discs", ""); });
  // It draws on the board's squares (no element of its own), and only while something moves.
  return { el: null, update() {}, restart, destroy: life.destroy };
}

// Jumps to a ply from the move list, the slider or the chart. Dragging the slider (or
// clicking fast) fires many; one is kept in flight and the latest target is sent once
// Python has answered, so intents do not carry a stale ply.
/** @param {Ctx} ctx */
function jumper(ctx) {
  const life = ctx.scope();
  /** @type {Timer | null} */
  let pending = null;
  /** @type {number | null} */
  let queued = null;
  /** @param {number} to */
  function request(to) {
    if (pending) { queued = to; return; }
    if (to === ctx.get("ply", 0)) return;
    ctx.send({ kind: "jump", to });
    pending = life.later(release, 1500);
  }
  function release() {
    if (pending) life.cancel(pending);
    pending = null;
    const q = queued;
    queued = null;
    if (q != null) request(q);
  }
  life.on("ply", release);
  life.on("msg:custom", (msg) => { if (typeof msg === "object" && msg && "kind" in msg && msg.kind === "refused") release(); });
  return { request, destroy: life.destroy };
}
/** @typedef {ReturnType<typeof jumper>} Jumper */

// ---------- move list: "1. d3 c5 2. f6 pass", the current move in view, and the replay slider ----------
/** @param {Ctx} ctx @param {Jumper} jump */
function moveList(ctx, jump) {
  const { get, S, L } = ctx;
  const life = ctx.scope();
  const count = h("span", { class: "rw-move-count" });
  const list = h("div", { class: "rw-movelist", "data-role": "moves" });
  const replay = h("input", { type: "range", min: "0", max: "0", step: "1", value: "0", "data-role": "replay", class: "rw-replay", ...OWN_KEYS });
  L(replay, "replay", "aria-label");
  // The named opening the moves up to the position shown follow, above the list (`opening`).
  const opening = h("div", { class: "rw-opening", "data-role": "opening", hidden: true });
  // The line shown when it is a variation: a tag saying so, and its two actions.
  const tag = L(h("span", { class: "rw-variation-tag", "data-role": "variation-tag" }), "variation_shown");
  const promote = L(h("button", { type: "button", class: "rw-variation-action", "data-role": "variation-promote", ...OWN_KEYS }), "variation_promote");
  const remove = L(h("button", { type: "button", class: "rw-variation-action", "data-role": "variation-delete", ...OWN_KEYS }), "variation_delete");
  const shown = h("span", { class: "rw-variation-shown", hidden: true }, tag, promote, remove);
  const el = h("div", { class: "rw-moves" },
    h("div", { class: "rw-moves-head" }, L(h("span", { class: "rw-heading" }), "moves"), shown, count), opening, list, replay);
  // Variation intents name the node where the line shown ends (js/PROTOCOL.md, "Variations").
  const lineEnd = () => { const nodes = get("variations", {}).nodes || []; return nodes[nodes.length - 1]; };
  /** @type {[HTMLButtonElement, "variation_promote" | "variation_delete"][]} */
  const variationActions = [[promote, "variation_promote"], [remove, "variation_delete"]];
  for (const [button, kind] of variationActions) {
    button.addEventListener("click", () => { const node = lineEnd(); if (typeof node === "number") ctx.send({ kind, node }); });
  }
  function showOpening() {
    const o = get("opening", {}) || {};
    const named = typeof o.text === "string" && o.text !== "";
    opening.hidden = !named;
    text(opening, named ? String(o.text) : "");
    flag(opening, "data-name", named && typeof o.name === "string", String(o.name));
  }

  list.addEventListener("click", (ev) => {
    const v = closest(ev, "[data-node]");
    if (v) { ctx.send({ kind: "variation_jump", node: Number(v.getAttribute("data-node")) }); return; }
    const b = closest(ev, "[data-ply]");
    if (b) jump.request(Number(b.getAttribute("data-ply")));
  });
  replay.addEventListener("input", () => jump.request(Number(replay.value)));
  // Hovering or focusing the marked move that led to the position shown draws its best line
  // (`review_here.line`) on the board.
  let hovering = false;
  /** @param {Event | null} ev */
  const hoverReview = (ev) => {
    const b = closest(ev, ".rw-move[data-mark]");
    const on = !!b && Number(b.getAttribute("data-ply")) === get("ply", 0);
    if (on !== hovering) { hovering = on; ctx.bus.dispatchEvent(new CustomEvent("review-hover", { detail: on })); }
  };
  list.addEventListener("pointerover", hoverReview);
  list.addEventListener("focusin", hoverReview);
  list.addEventListener("pointerleave", () => hoverReview(null));
  list.addEventListener("focusout", () => hoverReview(null));

  /** @type {HTMLButtonElement[]} */
  let entries = [];
  /** @type {HTMLButtonElement | null} */
  let current = null;
  // The other moves played instead of the line's move at `ply`, each with its own main
  // continuation, inline after it: "(2... c5 3. c4)"; a click on one jumps into it.
  /** @param {Branch} b */
  function branch(b) {
    const span = h("span", { class: "rw-variation", "data-branch": String(b.ply), "data-main": b.main ? "" : null,
      title: b.main ? S("variation_main") : S("variation_shown") }, "(");
    (b.moves || []).forEach((mv, k) => {
      const ply = b.ply + k;
      if (ply % 2 === 1 || k === 0) span.append(h("span", { class: "rw-num" }, `${Math.ceil(ply / 2)}${ply % 2 ? "." : "..."}`));
      span.append(h("button", { type: "button", class: "rw-variation-move", "data-node": String(b.nodes[k]), ...OWN_KEYS }, mv === "pass" ? S("pass_move") : String(mv)));
    });
    span.append(")");
    return span;
  }
  function build() {
    const moves = get("moves", []);
    const variations = get("variations", {});
    /** @type {Map<number, Branch[]>} */
    const branches = new Map();
    for (const b of variations.branches || []) if (b && typeof b.ply === "number") branches.set(b.ply, [...(branches.get(b.ply) || []), b]);
    list.replaceChildren();
    /** @type {HTMLElement | null} */
    let pair = null; // "12. d3 c5" wraps as one unit
    entries = moves.map((mv, i) => {
      const ply = i + 1;
      if (i % 2 === 0 || !pair) {
        pair = h("span", { class: "rw-pair" }, h("span", { class: "rw-num" }, i % 2 === 0 ? `${ply / 2 + 0.5}.` : `${ply / 2}...`));
        list.append(pair);
      }
      const b = h("button", { type: "button", class: "rw-move", "data-ply": String(ply), ...OWN_KEYS }, mv === "pass" ? S("pass_move") : String(mv));
      pair.append(b);
      if (branches.has(ply)) { // the line goes on after its variations, numbered anew
        for (const v of branches.get(ply) || []) list.append(branch(v));
        pair = null;
      }
      return b;
    });
    shown.hidden = variations.main !== false;
    if (!moves.length) list.append(h("span", { class: "rw-empty" }, S("no_moves")));
    replay.max = String(moves.length);
    markReview();
    showPly();
  }
  // After a review: each move carries its loss (data-loss), a mark on bad moves ("?!", "?",
  // "??"), how sure its scores are (data-certainty: "exact", "bound" for a proven win or loss
  // whose margin is a bound, "estimate") and a tooltip naming the best move and saying how
  // sure it is, all from `review_moves`.
  function markReview() {
    /** @type {Map<number, ReviewMove>} */
    const review = new Map();
    for (const e of get("review_moves", []) || []) if (e && typeof e.ply === "number") review.set(e.ply, e);
    entries.forEach((b, i) => {
      const e = review.get(i + 1);
      const old = b.querySelector(".rw-annot");
      if (old) old.remove();
      const forced = !!(e?.forced);
      flag(b, "data-loss", !!e && !forced && typeof e.loss === "number", e && String(e.loss));
      flag(b, "data-mark", !!(e?.mark), e && String(e.mark));
      flag(b, "data-best", !!e && !forced, e && String(e.best));
      flag(b, "data-certainty", !!e && !forced, e && (e.exact ? "exact" : e.bound ? "bound" : "estimate"));
      if (e?.mark) b.append(h("span", { class: "rw-annot", "aria-hidden": "true" }, String(e.mark)));
      if (e?.note) { // the tooltip, and the same words for screen readers; a marked move's best line too
        const words = e.lines_note ? `${e.note}\n${e.lines_note}` : String(e.note);
        b.setAttribute("title", words);
        b.setAttribute("aria-label", `${b.firstChild ? b.firstChild.textContent : ""}, ${words.replace("\n", "; ")}`);
      } else {
        b.removeAttribute("title");
        b.removeAttribute("aria-label");
      }
    });
    revealSoon(); // the marks widen the moves and the rows wrap anew: keep the current move in view
  }
  function showPly() {
    const ply = get("ply", 0);
    current = null;
    entries.forEach((b, i) => {
      flag(b, "data-future", i + 1 > ply);
      flag(b, "aria-current", i + 1 === ply, "step");
      if (i + 1 === ply) current = b;
    });
    replay.value = String(ply);
    count.textContent = `${ply} / ${entries.length}`;
    revealSoon();
  }
  // The current move is scrolled into the list's view; only the list scrolls, never the page.
  // The list stops only where a row begins, so its top row is never cut.
  function rowTops() {
    const box = list.getBoundingClientRect();
    const tops = [...list.children].map((row) => Math.round(row.getBoundingClientRect().top - box.top - list.clientTop + list.scrollTop));
    return [...new Set(tops)].sort((a, b) => a - b);
  }
  function reveal() {
    if (!list.clientHeight) return;
    const tops = rowTops();
    const aligned = tops.some((t) => Math.abs(t - list.scrollTop) < 1);
    if (!current) {
      if (!aligned) list.scrollTop = tops.filter((t) => t <= list.scrollTop).pop() || 0;
      return;
    }
    const box = list.getBoundingClientRect(), at = current.getBoundingClientRect();
    const top = at.top - box.top - list.clientTop + list.scrollTop;
    const seen = top >= list.scrollTop - 0.5 && top + at.height <= list.scrollTop + list.clientHeight + 0.5;
    if (seen && aligned) return;
    // The row about a third of the list above the current one begins the view (as far as the
    // list scrolls: a row's worth of room below the last row lets it stop at a row there too).
    const most = list.scrollHeight - list.clientHeight;
    const wanted = Math.min(most, seen ? list.scrollTop : Math.max(0, top - (list.clientHeight - at.height) / 3));
    const start = tops.filter((t) => t <= wanted + 0.5).pop() || 0;
    list.scrollTop = Math.min(start, top); // never past the current row
  }
  // Measuring the rows makes the browser work out the page's styles and layout at once, so
  // it waits for the next frame, which works them out anyway: a move then costs one styling
  // of the page instead of one per change (in JupyterLab each took milliseconds).
  /** @type {number | null} */
  let revealFrame = null;
  function revealSoon() {
    if (revealFrame === null) revealFrame = requestAnimationFrame(() => { revealFrame = null; reveal(); });
  }
  // A view drawn before it is on the page (or while hidden) has no size yet: reveal once it has.
  const sized = typeof ResizeObserver === "function" ? new ResizeObserver(() => reveal()) : null;
  if (sized) sized.observe(list);

  // A move changes `moves` and `ply` in one update: the list is drawn once, after both.
  let rebuild = false;
  const redraw = batched(() => { if (rebuild) build(); else showPly(); rebuild = false; });
  life.on("moves variations", () => { rebuild = true; redraw(); });
  life.on("review_moves", markReview);
  life.on("ply", redraw);
  life.on("opening", showOpening);
  return { el, update: () => { build(); showOpening(); }, destroy: () => { life.destroy(); if (sized) sized.disconnect(); if (revealFrame !== null) cancelAnimationFrame(revealFrame); } };
}

// ---------- the live evaluation: a bar beside the board, from `live` (Black's share from the bottom) ----------
// Python writes every word ("Black 72%", "estimate (depth 8)"); the bar only draws the share.
/** @param {Ctx} ctx */
function evalBar(ctx) {
  const { get, L } = ctx;
  const life = ctx.scope();
  const fill = h("div", { class: "rw-evalbar-black", "data-role": "evalbar-black" });
  const el = L(h("div", {
    class: "rw-evalbar", "data-role": "evalbar", role: "meter", "aria-valuemin": "0", "aria-valuemax": "100", hidden: true,
  }, fill), "live_bar", "title");
  const words = h("span", { class: "rw-evalbar-text", "data-role": "evalbar-text" });
  const note = h("span", { class: "rw-evalbar-note", "data-role": "evalbar-note" });
  const caption = h("div", { class: "rw-evalbar-caption", "data-role": "evalbar-caption", "aria-live": "polite", hidden: true }, words, note);
  function update() {
    const live = get("live", {}) || {};
    const on = !!live.mode;
    el.hidden = caption.hidden = !on;
    if (!on) return;
    const black = clamp(Number(live.black), 0, 1);
    const share = Number.isFinite(black) ? black : 0.5;
    fill.style.height = `${(share * 100).toFixed(2)}%`;
    flag(el, "data-known", !!live.known);
    flag(el, "data-mode", true, String(live.mode));
    el.setAttribute("aria-valuenow", String(Math.round(share * 100)));
    const text = String(live.text || "");
    words.textContent = text;
    note.textContent = String(live.note || "");
    el.setAttribute("aria-valuetext", [text, String(live.note || "")].filter(Boolean).join(", "));
  }
  life.on("live", update);
  return { el, caption, update, destroy: life.destroy };
}

// ---------- review chart: the evaluation after each move, from `evaluations` (Black's view) ----------
// Labelled: the scale in discs with 0 marked, which side is ahead above and below it, the move
// numbers as the move list has them; solid where the scores are exact, dashed where estimated.
/** @param {Ctx} ctx @param {Jumper} jump */
function reviewChart(ctx, jump) {
  const { get, S, L } = ctx;
  const life = ctx.scope();
  const chart = s("svg", { class: "rw-chart", "data-role": "review-chart", role: "img" });
  L(chart, "evaluation_help", "aria-label");
  const el = h("div", { class: "rw-review", "data-role": "review", hidden: true },
    L(h("span", { class: "rw-heading" }), "evaluation"), chart);
  // The plot sits inside the frame with room for the labels: values never reach its edge.
  const CW = 300, CH = 140, LEFT = 30, RIGHT = 6, TOP = 16, BOTTOM = 28, INSET = 5;
  const SCALES = [4, 8, 16, 32, 64];
  // A value is null where the live evaluation has no reading of that position yet.
  /** @returns {(number | null)[]} */
  const values = () => (get("evaluations", []) || []).map((v) => (v == null ? null : Number(v))).map((v) => (Number.isFinite(v) ? v : null));
  /** @type {(i: number, count: number) => number} */
  const xOf = (i, count) => LEFT + (i * (CW - LEFT - RIGHT)) / (count - 1);
  /** @type {(x: number, y: number, words: string, cls: string, anchor?: string) => SVGTextElement} */
  const label = (x, y, words, cls, anchor = "start") => {
    const t = s("text", { x, y, class: cls, "text-anchor": anchor });
    t.textContent = words;
    return t;
  };
  // Whether each value is exact: the move to it, or the move from it, was solved (a forced
  // move keeps the value before it, and so whether it is exact).
  /** @param {number} count @param {Map<number, ReviewMove>} review */
  function exactness(count, review) {
    /** @type {boolean[]} */
    const out = [];
    for (let i = 0; i < count; i++) {
      const before = review.get(i), after = review.get(i + 1);
      const came = before ? (before.forced ? out[i - 1] : before.exact) : false;
      out.push(!!(came || (after && !after.forced && after.exact)));
    }
    return out;
  }
  /** @param {number} v */
  const signed = (v) => `${v > 0 ? "+" : v < 0 ? "\u2212" : ""}${Math.abs(v)}`;
  /** @type {SVGLineElement | null} */
  let plyLine = null;
  function draw() {
    const vs = values();
    const known = vs.filter((v) => v !== null);
    el.hidden = vs.length < 2 || known.length < 2;
    chart.replaceChildren();
    plyLine = null;
    if (el.hidden) return;
    chart.setAttribute("viewBox", `0 0 ${CW} ${CH}`);
    /** @type {Map<number, ReviewMove>} */
    const review = new Map();
    for (const e of get("review_moves", []) || []) if (e && typeof e.ply === "number") review.set(e.ply, e);
    const moves = get("moves", []);
    const biggest = Math.max(...known.map(Math.abs));
    const top = SCALES.find((scale) => scale >= biggest) || Math.ceil(biggest);
    const mid = TOP + (CH - TOP - BOTTOM) / 2;
    /** @param {number} v */
    const y = (v) => mid - (v / top) * ((CH - TOP - BOTTOM) / 2 - INSET);
    const plot = s("g", { class: "rw-chart-plot" });
    plot.append(
      s("rect", { class: "rw-chart-frame", x: LEFT, y: TOP, width: CW - LEFT - RIGHT, height: CH - TOP - BOTTOM }),
      s("rect", { class: "rw-chart-black", x: LEFT, y: TOP, width: CW - LEFT - RIGHT, height: mid - TOP }),
      s("line", { class: "rw-chart-zero", x1: LEFT, y1: mid, x2: CW - RIGHT, y2: mid }));
    // The scale: +top, 0, -top discs, and which side is ahead where.
    const axis = s("g", { class: "rw-chart-axis", "data-role": "chart-axis" });
    for (const v of [top, top / 2, 0, -top / 2, -top]) {
      axis.append(s("line", { class: "rw-chart-tick", x1: LEFT - 3, y1: y(v), x2: LEFT, y2: y(v) }),
        label(LEFT - 5, y(v), signed(v), "rw-chart-label", "end"));
    }
    // Above the frame: the unit and which side is ahead up there; below the numbers, the other side.
    axis.append(label(2, 2, S("chart_unit"), "rw-chart-unit"),
      label(LEFT + 2, TOP - 4, `\u25b2 ${S("chart_black_ahead")}`, "rw-chart-side"),
      label(LEFT + 2, CH - 3, `\u25bc ${S("chart_white_ahead")}`, "rw-chart-side"));
    // The move numbers, as the move list numbers them: plies in pairs.
    const count = vs.length, plies = count - 1;
    const every = plies > 80 ? 20 : plies > 30 ? 10 : 5;
    for (let number = every; 2 * number - 1 <= plies; number += every) {
      const x = xOf(2 * number - 1, count);
      axis.append(s("line", { class: "rw-chart-tick", x1: x, y1: CH - BOTTOM, x2: x, y2: CH - BOTTOM + 3 }),
        label(x, CH - BOTTOM + 10, String(number), "rw-chart-label", "middle"));
    }
    axis.append(label(CW - RIGHT, CH - 3, S("chart_moves"), "rw-chart-side", "end"));
    // The line: dashed over the estimates, solid over the exact part; it joins the known
    // values only (the live evaluation may not have read every position yet).
    const pts = vs.map((v, i) => (v === null ? null : [xOf(i, count), y(v)]));
    /** @param {number} i  a known value's index @returns {[number, number]} */
    const pt = (i) => /** @type {[number, number]} */ (pts[i]);
    const live = get("live", {}) || {};
    const exact = review.size ? exactness(count, review) : vs.map((_, i) => !!(live.course_exact || [])[i]);
    const at = vs.map((_, i) => i).filter((i) => vs[i] !== null);
    /** @type {{ kind: string, points: [number, number][] }[]} */
    const pieces = [];
    for (let k = 1; k < at.length; k++) {
      const i = at[k], before = at[k - 1];
      const kind = exact[before] && exact[i] && i === before + 1 ? "exact" : "estimate";
      const last = pieces[pieces.length - 1];
      if (last && last.kind === kind) last.points.push(pt(i));
      else pieces.push({ kind, points: [pt(before), pt(i)] });
    }
    const line = at.map((i) => `${pt(i)[0].toFixed(1)},${pt(i)[1].toFixed(1)}`).join(" ");
    plot.append(s("polygon", { class: "rw-chart-area", points: `${xOf(at[0], count)},${mid} ${line} ${xOf(at[at.length - 1], count)},${mid}` }));
    for (const piece of pieces) {
      plot.append(s("polyline", {
        class: "rw-chart-line", "data-certainty": piece.kind,
        points: piece.points.map(([x, yy]) => `${x.toFixed(1)},${yy.toFixed(1)}`).join(" "),
      }));
    }
    plyLine = s("line", { class: "rw-chart-ply", x1: 0, y1: TOP, x2: 0, y2: CH - BOTTOM });
    const hits = s("g", { class: "rw-chart-points" });
    vs.forEach((v, i) => {
      if (v === null) return;
      const dot = s("circle", { class: "rw-chart-point", cx: pt(i)[0], cy: pt(i)[1], r: 2.2, "data-ply": String(i), "data-value": String(v) });
      const tip = s("title");
      const e = review.get(i);
      const name = i === 0 ? "0" : e?.label ? String(e.label) : `${Math.ceil(i / 2)}${i % 2 ? "." : "..."} ${moves[i - 1] || ""}`;
      tip.textContent = `${name}: ${S("black")} ${signed(Math.round(v))} ${S("chart_unit")} (${S(exact[i] ? "chart_exact" : "chart_estimate")})`;
      dot.append(tip);
      hits.append(dot);
    });
    chart.append(plot, axis, plyLine, hits);
    showPly();
  }
  function showPly() {
    const count = values().length;
    if (!plyLine || count < 2) return;
    const ply = clamp(get("ply", 0), 0, count - 1);
    plyLine.setAttribute("x1", String(xOf(ply, count)));
    plyLine.setAttribute("x2", String(xOf(ply, count)));
    plyLine.setAttribute("data-ply", String(ply));
  }
  chart.addEventListener("click", (ev) => { // a click jumps to the nearest position
    const count = values().length;
    const box = chart.getBoundingClientRect();
    if (count < 2 || !box.width) return;
    const at = ((ev.clientX - box.left) / box.width) * CW;
    jump.request(clamp(Math.round(((at - LEFT) * (count - 1)) / (CW - LEFT - RIGHT)), 0, Math.min(count - 1, get("moves", []).length)));
  });
  life.on("evaluations review_moves live", draw);
  life.on("ply", showPly);
  return { el, update: draw, destroy: life.destroy };
}

// ---------- notices: status line, analysis progress, game-over banner, last notice ----------
/** @param {Ctx} ctx */
function notices(ctx) {
  const { get, S, L } = ctx;
  const life = ctx.scope();
  const status = h("span", { class: "rw-status", "data-role": "status", "aria-live": "polite" });
  // The status line says who is thinking; the spinner only shows that something runs.
  const thinking = h("span", { class: "rw-thinking", "data-role": "thinking", "aria-hidden": "true", hidden: true },
    h("span", { class: "rw-spinner" }));
  const progressLabel = h("span", { class: "rw-progress-label" });
  const progressBar = h("progress", { class: "rw-progress-bar", max: "1", value: "0" });
  const progress = h("div", { class: "rw-progress", "data-role": "progress", hidden: true }, progressLabel, progressBar);
  const result = h("div", { class: "rw-result", "data-role": "result", hidden: true });
  const noticeText = h("span", { class: "rw-notice-text" });
  const dismiss = L(L(h("button", { type: "button", class: "rw-dismiss", ...OWN_KEYS }, "×"), "dismiss", "aria-label"), "dismiss", "title");
  const notice = h("div", { class: "rw-notice", "data-role": "notice", role: "status", hidden: true }, noticeText, dismiss);
  const legend = L(h("div", { class: "rw-legend", "data-role": "scores-legend", hidden: true }), "scores_legend");
  // On a reviewed line: the verdict on the move that led to the position shown (its best move
  // is marked on the board).
  const reviewNote = h("div", { class: "rw-review-note", "data-role": "review-note", hidden: true });
  const reviewLines = h("div", { class: "rw-review-lines", "data-role": "review-lines", hidden: true });
  // The best line on show on the board, in words (the board's "line" on the bus).
  const lineNote = h("div", { class: "rw-line-note", "data-role": "line-note", hidden: true });
  // The concept overlay's sentence: what the marks on the board are.
  const conceptNote = h("div", { class: "rw-concept-note", "data-role": "concept-note", hidden: true });
  const el = h("div", { class: "rw-notices" },
    h("div", { class: "rw-statusbar" }, status, thinking), progress, result, reviewNote, reviewLines, lineNote, notice, legend, conceptNote);
  /** @param {Event} ev */
  const showLine = (ev) => { lineNote.textContent = String((/** @type {CustomEvent} */ (ev)).detail || ""); lineNote.hidden = !lineNote.textContent; };
  ctx.bus.addEventListener("line", showLine);
  dismiss.addEventListener("click", () => { notice.hidden = true; });

  function drawStatus() {
    status.textContent = String(get("status", ""));
    thinking.hidden = !get("thinking", false);
    const over = !!get("game_over", false);
    const text = over ? String(get("result", "")) : "";
    result.hidden = !text;
    result.textContent = text;
  }
  function drawProgress() {
    const busy = String(get("busy", "") || "");
    const fraction = clamp(Number(get("progress", 0)) || 0, 0, 1);
    progress.hidden = !busy;
    progressLabel.textContent = busy ? S(`busy_${busy}`) : "";
    progressBar.value = fraction;
    progressBar.setAttribute("aria-valuetext", `${Math.round(fraction * 100)}%`);
    progressBar.setAttribute("aria-label", progressLabel.textContent);
  }
  let lastId = get("notice_id", 0); // an old notice is not news for a fresh view...
  function drawNotice() {
    const text = String(get("notice", ""));
    const id = get("notice_id", 0);
    notice.setAttribute("data-kind", get("notice_kind", "info") || "info");
    noticeText.textContent = text;
    if (!text) notice.hidden = true;
    else if (id !== lastId) { // news: show again even if dismissed, and replay the flash
      notice.hidden = false;
      notice.classList.remove("rw-flash");
      void notice.offsetWidth;
      notice.classList.add("rw-flash");
    }
    lastId = id;
  }
  notice.hidden = !get("notice", ""); // ...but still shown if set
  // What the numbers written on the squares mean, while they are there.
  const drawLegend = () => { legend.hidden = !Object.keys(get("scores", {}) || {}).length; };
  function drawReviewNote() {
    const here = get("review_here", {}) || {};
    reviewNote.textContent = here.note ? String(here.note) : "";
    reviewNote.hidden = !here.note;
    // a marked move: its best line beside the one played
    reviewLines.textContent = here.note && here.lines_note ? String(here.lines_note) : "";
    reviewLines.hidden = !reviewLines.textContent;
    flag(reviewNote, "data-color", !!here.color, String(here.color || ""));
  }
  function drawConceptNote() {
    text(conceptNote, String(get("concept_note", "") || ""));
    conceptNote.hidden = !conceptNote.textContent;
  }
  function update() { drawStatus(); drawProgress(); drawNotice(); drawLegend(); drawReviewNote(); drawConceptNote(); }
  life.on("scores", drawLegend);
  life.on("concept_note", drawConceptNote);
  life.on("review_here", drawReviewNote);
  life.on("status thinking game_over result", drawStatus);
  life.on("busy progress", drawProgress);
  life.on("notice notice_kind notice_id", drawNotice);
  return { el, update, destroy: life.destroy };
}

// ---------- practice (R17): Done / Show me the answer while a placed disc waits, and the tally ----------
/** @param {Ctx} ctx */
function practice(ctx) {
  const { get, L, send } = ctx;
  const life = ctx.scope();
  /** @param {"practice_done" | "practice_reveal"} action @param {Attrs} [extra] */
  const button = (action, extra = {}) => {
    const b = L(h("button", { type: "button", class: "rw-btn", "data-action": action, ...OWN_KEYS, ...extra }), action);
    b.addEventListener("click", () => send({ kind: action }));
    return b;
  };
  const actions = h("div", { class: "rw-practice-actions", "data-role": "practice-actions", hidden: true },
    button("practice_done"), button("practice_reveal"));
  const mistakes = h("span", { class: "rw-tally-value", "data-role": "practice-mistakes" });
  const moves = h("span", { class: "rw-tally-value", "data-role": "practice-moves" });
  const tally = h("div", { class: "rw-tally", "data-role": "practice-tally", hidden: true },
    h("span", {}, L(h("span"), "practice_mistakes"), ": ", mistakes),
    h("span", {}, L(h("span"), "practice_moves"), ": ", moves));
  const el = h("div", { class: "rw-practice" }, actions, tally);
  function update() {
    actions.hidden = !get("practice_move", "");
    for (const b of actions.children) flag(b, "data-primary", get("actions", {})?.[b.getAttribute("data-action") || ""] === "primary");
    mistakes.textContent = String(get("practice_mistakes", 0));
    moves.textContent = String(get("practice_moves", 0));
    tally.hidden = !get("practice", false) && !get("practice_moves", 0);
  }
  life.on("practice practice_move practice_mistakes practice_moves actions", update);
  return { el, update, destroy: life.destroy };
}

// ---------- puzzle mode: the task, the verdict on the first move, the score ----------
/** @param {Ctx} ctx */
function puzzle(ctx) {
  const { get, S, L, send } = ctx;
  const life = ctx.scope();
  /** @param {"puzzle_next" | "puzzle_retry" | "puzzle_solution" | "puzzle_play_out"} action */
  const button = (action) => {
    const b = L(h("button", { type: "button", class: "rw-btn", "data-action": action, ...OWN_KEYS }), action);
    b.addEventListener("click", () => {
      const { index } = get("puzzle_state", {}); // the panel shows only in puzzle mode, where there is one
      if (typeof index === "number") send({ kind: action, puzzle: index });
    });
    return b;
  };
  const counter = h("span", { class: "rw-puzzle-counter", "data-role": "puzzle-counter" });
  const score = h("span", { class: "rw-puzzle-score", "data-role": "puzzle-score" });
  const task = h("p", { class: "rw-puzzle-task", "data-role": "puzzle-task" });
  const verdict = h("p", { class: "rw-puzzle-verdict", "data-role": "puzzle-verdict", "aria-live": "polite" });
  const buttons = {
    retry: button("puzzle_retry"), solution: button("puzzle_solution"), playOut: button("puzzle_play_out"),
    next: button("puzzle_next"),
  };
  const el = h("div", { class: "rw-puzzle", "data-role": "puzzle", hidden: true },
    h("div", { class: "rw-puzzle-head" }, counter, score), task, verdict,
    h("div", { class: "rw-puzzle-actions" }, ...Object.values(buttons)));
  /** @param {string} key @param {Record<string, unknown>} values */
  const fill = (key, values) => S(key).replace(/\{(\w+)\}/g, (m, k) => (k in values ? String(values[k]) : m));
  function update() {
    const p = get("puzzle_state", {});
    el.hidden = !p || p.count == null;
    if (el.hidden) return;
    const index = Number(p.index), count = Number(p.count);
    counter.textContent = fill("puzzle_counter", { index: index + 1, count: p.count });
    score.textContent = fill("puzzle_score", { solved: p.solved, tried: p.tried });
    task.textContent = String(p.task || "");
    verdict.textContent = String(p.verdict || "");
    verdict.hidden = !p.verdict;
    flag(el, "data-verdict", !!p.verdict_kind, String(p.verdict_kind || ""));
    buttons.retry.disabled = !!p.at_start;
    buttons.playOut.disabled = !p.can_play_out;
    buttons.next.disabled = index + 1 >= count;
  }
  life.on("puzzle_state", update);
  return { el, update, destroy: life.destroy };
}

// ---------- square-marking mode: the question, the marks counted, Check / Clear / Show the answer ----------
/** @param {Ctx} ctx */
function quiz(ctx) {
  const { get, S, L, send } = ctx;
  const life = ctx.scope();
  /** @param {"quiz_check" | "quiz_clear" | "quiz_reveal"} action */
  const button = (action) => {
    const b = L(h("button", { type: "button", class: "rw-btn", "data-action": action, ...OWN_KEYS }), action);
    b.addEventListener("click", () => send({ kind: action }));
    return b;
  };
  const question = h("p", { class: "rw-quiz-question", "data-role": "quiz-question" });
  const count = h("span", { class: "rw-quiz-count", "data-role": "quiz-count" });
  const verdict = h("p", { class: "rw-quiz-verdict", "data-role": "quiz-verdict", "aria-live": "polite" });
  const answer = h("p", { class: "rw-quiz-answer", "data-role": "quiz-answer" });
  const buttons = { check: button("quiz_check"), clear: button("quiz_clear"), reveal: button("quiz_reveal") };
  const el = h("div", { class: "rw-quiz", "data-role": "quiz", hidden: true },
    question, count, verdict, answer, h("div", { class: "rw-quiz-actions" }, ...Object.values(buttons)));
  function update() {
    const q = get("quiz_state", {}) || {};
    el.hidden = !q.question;
    if (el.hidden) return;
    question.textContent = String(q.question);
    const marked = (q.marked || []).length;
    count.textContent = S("quiz_count").replace("{count}", String(marked));
    verdict.textContent = String(q.verdict || "");
    verdict.hidden = !q.verdict;
    answer.textContent = String(q.answer_text || "");
    answer.hidden = !q.answer_text;
    flag(el, "data-verdict", !!q.verdict_kind, String(q.verdict_kind || ""));
    flag(buttons.check, "data-primary", marked > 0 && !q.verdict_kind);
    buttons.clear.disabled = marked === 0;
    buttons.reveal.disabled = !!q.answer_text;
  }
  life.on("quiz_state", update);
  return { el, update, destroy: life.destroy };
}

// ---------- a coached game: the verdict on the learner's move, Try again / Go on, the summary ----------
/** @param {Ctx} ctx @param {Jumper} jump */
function coachPanel(ctx, jump) {
  const { get, L, send } = ctx;
  const life = ctx.scope();
  /** @param {"coach_retry" | "coach_go_on"} action */
  const button = (action) => {
    const b = L(h("button", { type: "button", class: "rw-btn", "data-action": action, ...OWN_KEYS }), action);
    b.addEventListener("click", () => send({ kind: action }));
    return b;
  };
  const verdict = h("p", { class: "rw-coach-verdict", "data-role": "coach-verdict", "aria-live": "polite" });
  const retry = button("coach_retry");
  const goOn = button("coach_go_on");
  const actions = h("div", { class: "rw-coach-actions", "data-role": "coach-actions" }, retry, goOn);
  const summaryText = h("p", { class: "rw-coach-summary-text", "data-role": "coach-summary-text" });
  // The worst moves: a click shows the position before one, to play it again from there.
  const worst = h("ol", { class: "rw-coach-worst", "data-role": "coach-worst" });
  worst.addEventListener("click", (ev) => {
    const b = closest(ev, "[data-coach-replay]");
    if (b) jump.request(Number(b.getAttribute("data-coach-replay")));
  });
  const summary = h("div", { class: "rw-coach-summary", "data-role": "coach-summary", hidden: true },
    L(h("p", { class: "rw-coach-summary-heading" }), "coach_summary_heading"), summaryText, worst);
  const el = h("div", { class: "rw-coach", "data-role": "coach", hidden: true },
    L(h("span", { class: "rw-coach-heading" }), "coach_heading"), verdict, actions, summary);
  let shownWorst = "";
  function update() {
    const c = get("coach_state", {}) || {};
    el.hidden = !c.state && !(c.summary?.text); // nothing judged yet, or the coach is off
    if (el.hidden) return;
    flag(el, "data-state", !!c.state, String(c.state || ""));
    flag(el, "data-kind", !!c.kind, String(c.kind || ""));
    text(verdict, String(c.verdict || ""));
    verdict.hidden = !c.verdict;
    retry.hidden = !c.can_retry;
    goOn.hidden = !c.can_go_on;
    flag(retry, "data-primary", !!c.can_go_on); // a marked move waits: trying again is the step to learn from
    actions.hidden = retry.hidden && goOn.hidden;
    const s = c.summary || {};
    summary.hidden = !s.text;
    text(summaryText, String(s.text || ""));
    const entries = Array.isArray(s.worst) ? s.worst : [];
    const key = JSON.stringify(entries);
    if (key !== shownWorst) {
      shownWorst = key;
      worst.replaceChildren(...entries.map((w) => h("li", {},
        h("button", { type: "button", class: "rw-coach-replay", "data-coach-replay": String(w.to), title: String(w.note || ""), ...OWN_KEYS },
          h("span", { class: "rw-coach-replay-move" }, String(w.label || "")), " ", String(w.note || "")))));
    }
    for (const b of worst.querySelectorAll("[data-coach-replay]")) {
      const shown = Number(b.getAttribute("data-coach-replay")) === get("ply", 0); // the position shown is this one's
      flag(b, "aria-current", shown, "step");
    }
  }
  life.on("coach_state ply", update);
  return { el, update, destroy: life.destroy };
}

// ---------- the position editor: edit, side to move, clear / start / copy, done / cancel ----------
/** @param {Ctx} ctx */
function editor(ctx) {
  const { get, S, L, send } = ctx;
  const life = ctx.scope();
  /** @param {"edit" | "edit_clear" | "edit_start" | "edit_copy" | "edit_done" | "edit_cancel"} action @param {Attrs} [extra] */
  const button = (action, extra = {}) => {
    const b = L(h("button", { type: "button", class: "rw-btn", "data-action": action, ...OWN_KEYS, ...extra }), action);
    if (action !== "edit_copy") b.addEventListener("click", () => send({ kind: action }));
    return b;
  };
  const open = button("edit");
  const turn = h("select", { class: "rw-select", "data-role": "edit-turn", ...OWN_KEYS });
  for (const c of COLORS) turn.append(L(h("option", { value: c }), c));
  turn.addEventListener("change", () => send({ kind: "edit_turn", color: turn.value }));
  const copy = button("edit_copy");
  copy.addEventListener("click", async () => {
    const text = String(get("position", ""));
    try { await navigator.clipboard.writeText(text); } catch { // no clipboard here: select the text instead
      field.hidden = false; field.select();
    }
    copy.textContent = S("edit_copied");
    life.later(() => { copy.textContent = S("edit_copy"); }, 1500);
  });
  const field = h("input", { class: "rw-edit-position", "data-role": "edit-position", readonly: true, hidden: true, ...OWN_KEYS });
  const tools = h("div", { class: "rw-edit-tools", "data-role": "edit-tools", hidden: true },
    h("label", {}, L(h("span"), "edit_to_move"), " ", turn),
    button("edit_clear"), button("edit_start"), copy,
    button("edit_done", { "data-primary": true }), button("edit_cancel"), field);
  const el = h("div", { class: "rw-editor" }, open, tools);
  function update() {
    const editing = !!get("editing", false);
    open.hidden = editing || !!get("puzzle_state", {})?.count;
    tools.hidden = !editing;
    if (editing) turn.value = get("turn", "black") || "black";
    field.value = String(get("position", ""));
  }
  life.on("editing turn position puzzle_state", update);
  return { el, update, destroy: life.destroy };
}

// ---------- controls: the action buttons; Python's `actions` says which apply and which is primary ----------
/** @param {Ctx} ctx */
function controls(ctx) {
  const { get, S, L, send } = ctx;
  const life = ctx.scope();
  /**
   * @param {string} action  its `data-action`, as `actions` names it
   * @param {string} key  its label in `strings`
   * @param {PlainIntent | (() => PlainIntent)} kind  the intent it sends
   * @param {Attrs} [extra]
   */
  const button = (action, key, kind, extra = {}) => {
    const b = L(h("button", { type: "button", class: "rw-btn", "data-action": action, ...OWN_KEYS, ...extra }), key);
    b.addEventListener("click", () => send({ kind: typeof kind === "function" ? kind() : kind }));
    return b;
  };
  const buttons = {
    undo: button("undo", "undo", "undo", { "aria-keyshortcuts": "U" }),
    redo: button("redo", "redo", "redo", { "aria-keyshortcuts": "R" }),
    pass: button("pass", "pass", "pass"),
    new: button("new", "new_game", "new_game"),
    hint: button("hint", "hint", "hint"),
    // Pause/Resume: its label follows `paused`.
    pause: h("button", { type: "button", class: "rw-btn", "data-action": "pause", ...OWN_KEYS }),
    review: button("review", "review", "review"),
  };
  buttons.pause.addEventListener("click", () => send({ kind: get("paused", false) ? "resume" : "pause" }));
  const el = h("div", { class: "rw-actions" }, ...Object.values(buttons));
  function update() {
    const apply = get("actions", {}) || {};
    for (const [action, b] of Object.entries(buttons)) {
      const how = apply[action]; // "primary", "enabled", "disabled", or absent: it does not apply
      b.hidden = !how;
      b.disabled = how === "disabled";
      flag(b, "data-primary", how === "primary");
    }
    const paused = !!get("paused", false);
    buttons.pause.textContent = S(paused ? "resume" : "pause");
    buttons.pause.setAttribute("aria-pressed", String(paused));
  }
  life.on("actions paused", update);
  return { el, update, destroy: life.destroy };
}

// ---------- settings: toggles and choices, written back as traits ----------
/** @param {Ctx} ctx */
function settings(ctx) {
  const { get, L, setting } = ctx;
  const life = ctx.scope();
  const toggles = h("div", { class: "rw-toggles" });
  const selects = h("div", { class: "rw-selects" });
  const el = h("div", { class: "rw-settings" }, toggles, selects);
  // Which settings are on by default (Python's defaults, as the model starts with them).
  /** @type {Record<"show_legal" | "show_flips" | "show_coordinates" | "show_me" | "practice" | "show_scores", boolean>} */
  const BOOLEANS = { show_legal: true, show_flips: true, show_coordinates: true, show_me: false, practice: false, show_scores: false };
  /** @type {Partial<Record<keyof typeof BOOLEANS, HTMLInputElement>>} */
  const toggle = {};
  for (const key of keysOf(BOOLEANS)) {
    const input = h("input", { type: "checkbox", "data-setting": key, ...OWN_KEYS });
    input.addEventListener("change", () => setting(key, input.checked));
    toggle[key] = input;
    toggles.append(h("label", { class: "rw-toggle" }, input, L(h("span"), key)));
  }
  // The choices of each list are Python's (`config`); their labels come from `strings`.
  /** @type {Record<"animation" | "theme" | "concept" | "live_evaluation", "animations" | "themes" | "concepts" | "live_evaluations">} */
  const CHOICES = { animation: "animations", theme: "themes", concept: "concepts", live_evaluation: "live_evaluations" };
  /** @type {Partial<Record<keyof typeof CHOICES, HTMLSelectElement>>} */
  const choice = {};
  for (const key of keysOf(CHOICES)) {
    const sel = h("select", { "data-setting": key, ...OWN_KEYS });
    sel.addEventListener("change", () => setting(key, sel.value));
    choice[key] = sel;
    selects.append(h("label", { class: "rw-select" }, L(h("span"), key), sel));
  }
  function fillChoices() {
    for (const key of keysOf(CHOICES)) {
      const list = CHOICES[key];
      const sel = /** @type {HTMLSelectElement} */ (choice[key]);
      const values = ctx.config(list, [get(key, "")]);
      // an empty choice ("", no concept) is labelled <key>_off
      sel.replaceChildren(...values.map((v) => h("option", { value: v }, ctx.S(`${key}_${String(v || "off").replace("-", "_")}`))));
      sel.value = get(key, "");
    }
  }
  function update() {
    for (const key of keysOf(BOOLEANS)) /** @type {HTMLInputElement} */ (toggle[key]).checked = !!get(key, BOOLEANS[key]);
    for (const key of keysOf(CHOICES)) /** @type {HTMLSelectElement} */ (choice[key]).value = get(key, "");
  }
  life.on("show_legal show_flips show_coordinates show_me practice show_scores animation theme concept live_evaluation", update);
  life.on("config strings", fillChoices);
  fillChoices();
  return { el, update, destroy: life.destroy };
}

// ---------- explorer: the master games' moves from this position, and the games behind them.
// Python writes every word (explorer_view, in the widget's language); a move is played with an
// ordinary move intent, an example game loaded with an explorer_game intent ----------
/** @param {Ctx} ctx */
function explorerPanel(ctx) {
  const { get, send } = ctx;
  const life = ctx.scope();
  const title = h("span", { class: "rw-heading" });
  const body = h("div", { class: "rw-explorer-body" });
  const el = h("div", { class: "rw-explorer", "data-role": "explorer", hidden: true }, title, body);
  /** @param {ExplorerRow} row */
  function moveButton(row) {
    const button = h("button", { type: "button", class: "rw-explorer-move", "data-move": String(row.move), ...OWN_KEYS }, String(row.move));
    button.addEventListener("click", () => send(row.move === "pass" ? { kind: "pass" } : { kind: "move", square: String(row.move) }));
    return button;
  }
  /** @param {ExplorerRow} row @param {string} load */
  function gameButtons(row, load) {
    return (row.games || []).map((game, i) => {
      const button = h("button", { type: "button", class: "rw-explorer-game", "data-game": `${row.move}-${i}`, title: load, ...OWN_KEYS }, String(game.label));
      button.addEventListener("click", () => send({ kind: "explorer_game", square: String(row.move), to: i }));
      return button;
    });
  }
  function update() {
    const view = get("explorer_view", {}) || {};
    el.hidden = !get("show_explorer", false) || !view.state;
    title.textContent = String(view.title || "");
    el.setAttribute("data-state", String(view.state || ""));
    if (el.hidden) { body.replaceChildren(); return; }
    if (view.state !== "moves") {
      body.replaceChildren(h("p", { class: "rw-explorer-message", "data-role": "explorer-message" }, String(view.message || "")));
      return;
    }
    const headings = (view.headings || []).map((text) => h("th", { scope: "col" }, String(text)));
    const rows = [];
    for (const row of view.moves || []) {
      const cells = (row.cells || []).slice(1).map((text) => h("td", {}, String(text)));
      if (cells.length > 1) { // Black's share as a bar behind its number
        const share = clamp(Number(row.share) || 0, 0, 1);
        cells[1].prepend(h("span", { class: "rw-explorer-bar", style: `--rw-share: ${(share * 100).toFixed(1)}%` }));
        cells[1].classList.add("rw-explorer-share");
      }
      rows.push(h("tr", { "data-move": String(row.move) }, h("td", {}, moveButton(row)), ...cells));
      const games = gameButtons(row, String(view.load || ""));
      if (games.length) rows.push(h("tr", { class: "rw-explorer-games" }, h("td", { colspan: String(headings.length) }, ...games)));
    }
    body.replaceChildren(h("table", { class: "rw-explorer-table" }, h("thead", {}, h("tr", {}, ...headings)), h("tbody", {}, ...rows)));
  }
  life.on("explorer_view show_explorer", update);
  return { el, update, destroy: life.destroy };
}

/** @param {{ model: Model, el: HTMLElement }} view */
function render({ model, el }) {
  const ctx = viewContext(model);
  const { get } = ctx;
  const life = ctx.scope();
  const root = h("div", { class: "reversi-widget" });

  const jump = jumper(ctx);
  const parts = {};
  parts.players = players(ctx);
  parts.board = board(ctx, { onBuild: () => parts.animation.restart() });
  parts.animation = animation(ctx, parts.board);
  parts.notices = notices(ctx);
  parts.practice = practice(ctx);
  parts.puzzle = puzzle(ctx);
  parts.quiz = quiz(ctx);
  parts.coach = coachPanel(ctx, jump);
  parts.editor = editor(ctx);
  parts.controls = controls(ctx);
  parts.moves = moveList(ctx, jump);
  parts.review = reviewChart(ctx, jump);
  parts.bar = evalBar(ctx);
  parts.settings = settings(ctx);
  parts.explorer = explorerPanel(ctx);

  root.append(
    h("div", { class: "rw-main" }, parts.players.el, h("div", { class: "rw-board-row" }, parts.bar.el, parts.board.el),
      parts.bar.caption, parts.notices.el, parts.practice.el, parts.coach.el, parts.puzzle.el, parts.quiz.el),
    h("div", { class: "rw-side" }, parts.controls.el, parts.editor.el, parts.moves.el, parts.review.el,
      parts.explorer.el, parts.settings.el));
  el.append(root);

  // The root carries the state that styles read: theme, turn, what runs.
  function drawRoot() {
    // (each written only when it changes: a written `lang` or theme restyles the whole widget)
    attr(root, "lang", String(get("language", "en") || "en"));
    attr(root, "data-theme", get("theme", "auto"));
    attr(root, "data-animation", get("animation", "normal"));
    attr(root, "data-turn", get("turn", "") || "none");
    flag(root, "data-thinking", !!get("thinking", false));
    flag(root, "data-game-over", !!get("game_over", false));
    flag(root, "data-paused", !!get("paused", false));
    flag(root, "data-practice-pending", !!get("practice_move", ""));
    flag(root, "data-editing", !!get("editing", false));
    flag(root, "data-quiz", !!get("quiz_state", {})?.question);
    const busy = String(get("busy", "") || "");
    flag(root, "data-busy", !!busy, busy);
    const size = get("size", null);
    if (size) root.style.setProperty("--rw-board-size", `${size}px`);
    else root.style.removeProperty("--rw-board-size");
    flag(root, "data-sized", !!size);
  }
  life.on("language theme animation turn thinking game_over paused practice_move busy size editing quiz_state", drawRoot);
  // Where the host re-runs code only on a view's writes (marimo), each new picture is reported.
  function reportShown() {
    if (!ctx.config("report_shown", false)) return;
    const seen = fingerprint([get("ply", 0), get("moves", []).join(","), get("discs", ""), get("turn", ""), get("status", "")].join("|"));
    if (seen !== get("shown", 0)) ctx.setting("shown", seen);
  }
  life.on("ply moves discs turn status", reportShown);
  life.on("strings", () => { ctx.applyLabels(); for (const part of Object.values(parts)) part.update(); });

  drawRoot();
  ctx.applyLabels();
  parts.board.build();
  for (const part of Object.values(parts)) part.update();
  reportShown();

  return () => {
    life.destroy();
    jump.destroy();
    for (const part of Object.values(parts)) part.destroy();
    root.remove();
  };
}

export default { render };
