// reversi-widget front end (anywidget ES module, no imports: it is loaded from a Blob URL).
// Python owns the game: this file only draws the synced traits and sends intents.
// Contract: js/PROTOCOL.md.

// Every word shown comes from the `strings` trait; these English defaults fill the gaps.
const DEFAULT_STRINGS = {
  black: "Black", white: "White", empty: "empty", legal: "legal", flips: "flips",
  last_move: "last move", flipped: "flipped", board: "Reversi board",
  undo: "Undo", redo: "Redo", new_game: "New game", pass: "Pass", pass_move: "pass",
  moves: "Moves", no_moves: "No moves yet", replay: "Replay", thinking: "Thinking…",
  supply: "left", to_move: "to move", dismiss: "Dismiss",
  show_legal: "Legal moves", show_flips: "Preview flips", show_coordinates: "Coordinates",
  animation: "Animation", animation_off: "Off", animation_slow: "Slow",
  animation_normal: "Normal", animation_fast: "Fast",
  theme: "Theme", theme_auto: "Auto", theme_light: "Light", theme_dark: "Dark",
  theme_high_contrast: "High contrast",
  show_me: "Show me", practice: "Practice", practice_done: "Done", practice_reveal: "Show me the answer",
  practice_mistakes: "Mistakes", practice_moves: "Practice moves",
  practice_wrong: "should not flip", practice_missed: "should flip", demo_line: "flanked line",
  hint: "Hint", pause: "Pause", resume: "Resume", review: "Review", show_scores: "Scores",
  busy_hint: "Looking for the best move…", busy_scores: "Scoring the moves…", busy_review: "Reviewing the game…",
  evaluation: "Evaluation",
  evaluation_help: "Evaluation after each move: above the middle line Black is ahead, below it White",
  score: "score", hint_move: "hint: best move",
};

const SVG_NS = "http://www.w3.org/2000/svg";
const C = 40; // SVG user units per square; the whole board scales through the viewBox
const SPEED = { slow: 480, normal: 300, fast: 180 }; // ms per disc
const DEMO_LINE_STEPS = 2; // "show me" lights each flanked line for this many steps (PROTOCOL.md)
const DISC = { X: "black", O: "white" };
const COLORS = ["black", "white"];
const FILES = "abcdefghijklmnop";
let viewCounter = 0; // unique ids per view (markers, aria-activedescendant)

// Build an HTML element; text always goes in as a text node, never as markup.
function h(tag, attrs = {}, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v != null && v !== false) el.setAttribute(k, v === true ? "" : v);
  for (const k of kids) el.append(k); // append() turns strings into text nodes
  return el;
}
function s(tag, attrs = {}) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  return el;
}
function flag(el, name, on, value = "") {
  if (on) el.setAttribute(name, value);
  else el.removeAttribute(name);
}
const clamp = (v, lo, hi) => Math.max(lo, Math.min(hi, v));

function render({ model, el }) {
  const uid = `rw${++viewCounter}`;
  const offs = [];
  const timers = new Set();
  const get = (k, d) => { const v = model.get(k); return v == null ? d : v; };
  const S = (k) => { const t = get("strings", {})[k]; return typeof t === "string" && t ? t : DEFAULT_STRINGS[k]; };
  const listen = (ev, fn) => { model.on(ev, fn); offs.push(() => model.off(ev, fn)); };
  const later = (fn, ms) => { const t = setTimeout(() => { timers.delete(t); fn(); }, ms); timers.add(t); return t; };
  const cancel = (t) => { clearTimeout(t); timers.delete(t); };
  // Every intent carries the ply it was made in, so Python can refuse stale ones.
  const send = (intent) => model.send({ ...intent, ply: get("ply", 0) });
  const setting = (k, v) => { model.set(k, v); model.save_changes(); };

  // Labels that follow the `strings` trait: [element, key, attribute or null for text].
  const labels = [];
  const L = (node, key, attr = null) => { labels.push([node, key, attr]); return node; };
  const applyLabels = () => {
    for (const [node, key, attr] of labels) {
      if (attr) node.setAttribute(attr, S(key));
      else node.textContent = S(key);
    }
  };

  // ---------- static layout ----------
  const root = h("div", { class: "reversi-widget" });
  const cards = {};
  const playersEl = h("div", { class: "rw-players" });
  for (const c of COLORS) {
    const card = {
      el: h("div", { class: "rw-player", "data-role": "player", "data-color": c }),
      color: L(h("span", { class: "rw-color" }), c),
      name: h("span", { class: "rw-name", "data-role": "player-name" }),
      count: h("span", { class: "rw-count", "data-role": "count" }),
      supply: h("span", { class: "rw-supply", "data-role": "supply" }),
    };
    card.el.append(
      h("span", { class: "rw-chip", "aria-hidden": "true" }),
      h("span", { class: "rw-who" }, card.color, card.name),
      h("span", { class: "rw-score" }, card.count, card.supply),
    );
    cards[c] = card;
    playersEl.append(card.el);
  }

  const board = s("svg", {
    class: "rw-board", role: "grid", tabindex: "0", "data-role": "board",
    // JupyterLab: keep notebook command-mode shortcuts (r, u, arrows...) away while focused here.
    "data-lm-suppress-shortcuts": "true",
  });
  L(board, "board", "aria-label");
  const boardWrap = h("div", { class: "rw-board-wrap" }, board);

  const statusEl = h("span", { class: "rw-status", "data-role": "status", "aria-live": "polite" });
  const thinkingEl = h("span", { class: "rw-thinking", "data-role": "thinking", hidden: true },
    h("span", { class: "rw-spinner", "aria-hidden": "true" }), L(h("span"), "thinking"));
  const resultEl = h("div", { class: "rw-result", "data-role": "result", hidden: true });
  const noticeText = h("span", { class: "rw-notice-text" });
  const dismiss = L(L(h("button", { type: "button", class: "rw-dismiss" }, "×"), "dismiss", "aria-label"), "dismiss", "title");
  const noticeEl = h("div", { class: "rw-notice", "data-role": "notice", role: "status", hidden: true }, noticeText, dismiss);

  const btn = (action, key, extra = {}) => L(h("button", { type: "button", class: "rw-btn", "data-action": action, ...extra }), key);
  const buttons = {
    undo: btn("undo", "undo", { "aria-keyshortcuts": "U" }),
    redo: btn("redo", "redo", { "aria-keyshortcuts": "R" }),
    pass: btn("pass", "pass"),
    new: btn("new", "new_game"),
    hint: btn("hint", "hint"),
  };
  // Pause/Resume (its label follows `paused`) and Review (once the game is over) show when they apply.
  const pauseButton = h("button", { type: "button", class: "rw-btn", "data-action": "pause", hidden: true });
  const reviewButton = btn("review", "review", { hidden: true });
  const actionsEl = h("div", { class: "rw-actions" }, ...Object.values(buttons), pauseButton, reviewButton);

  // Long analyses (hint, scores, review) show what runs and how far it is.
  const progressLabel = h("span", { class: "rw-progress-label" });
  const progressBar = h("progress", { class: "rw-progress-bar", max: "1", value: "0" });
  const progressEl = h("div", { class: "rw-progress", "data-role": "progress", hidden: true }, progressLabel, progressBar);

  // Practice (R17): Done / Show me the answer while a placed disc waits for its flips.
  const practiceButtons = {
    practice_done: btn("practice_done", "practice_done", { class: "rw-btn rw-primary" }),
    practice_reveal: btn("practice_reveal", "practice_reveal"),
  };
  const practiceActions = h("div", { class: "rw-practice-actions", "data-role": "practice-actions", hidden: true },
    ...Object.values(practiceButtons));
  const tally = {
    mistakes: h("span", { class: "rw-tally-value", "data-role": "practice-mistakes" }),
    moves: h("span", { class: "rw-tally-value", "data-role": "practice-moves" }),
  };
  const tallyEl = h("div", { class: "rw-tally", "data-role": "practice-tally", hidden: true },
    h("span", {}, L(h("span"), "practice_mistakes"), ": ", tally.mistakes),
    h("span", {}, L(h("span"), "practice_moves"), ": ", tally.moves));

  const moveCount = h("span", { class: "rw-move-count" });
  const moveList = h("div", { class: "rw-movelist", "data-role": "moves" });
  const replay = h("input", { type: "range", min: "0", max: "0", step: "1", value: "0", "data-role": "replay", class: "rw-replay" });
  L(replay, "replay", "aria-label");
  const movesEl = h("div", { class: "rw-moves" },
    h("div", { class: "rw-moves-head" }, L(h("span", { class: "rw-heading" }), "moves"), moveCount),
    moveList, replay);

  // Game review: the evaluation after each move, drawn from `evaluations` (Black's view).
  const chart = s("svg", { class: "rw-chart", "data-role": "review-chart", role: "img" });
  L(chart, "evaluation_help", "aria-label");
  const reviewEl = h("div", { class: "rw-review", "data-role": "review", hidden: true },
    L(h("span", { class: "rw-heading" }), "evaluation"), chart);

  const toggle = (key) => {
    const input = h("input", { type: "checkbox", "data-setting": key });
    input.addEventListener("change", () => setting(key, input.checked));
    return [input, h("label", { class: "rw-toggle" }, input, L(h("span"), key))];
  };
  const select = (key, values) => {
    const sel = h("select", { "data-setting": key });
    for (const v of values) sel.append(L(h("option", { value: v }), `${key}_${v.replace("-", "_")}`));
    sel.addEventListener("change", () => setting(key, sel.value));
    return [sel, h("label", { class: "rw-select" }, L(h("span"), key), sel)];
  };
  const settings = {};
  const toggles = h("div", { class: "rw-toggles" });
  const selects = h("div", { class: "rw-selects" });
  const settingsEl = h("div", { class: "rw-settings" }, toggles, selects);
  for (const [key, make] of [
    ["show_legal", () => toggle("show_legal")], ["show_flips", () => toggle("show_flips")],
    ["show_coordinates", () => toggle("show_coordinates")],
    ["show_me", () => toggle("show_me")], ["practice", () => toggle("practice")],
    ["show_scores", () => toggle("show_scores")],
    ["animation", () => select("animation", ["off", "slow", "normal", "fast"])],
    ["theme", () => select("theme", ["auto", "light", "dark", "high-contrast"])],
  ]) {
    const [input, wrap] = make();
    settings[key] = input;
    (input.tagName === "SELECT" ? selects : toggles).append(wrap);
  }

  const main = h("div", { class: "rw-main" }, playersEl, boardWrap,
    h("div", { class: "rw-statusbar" }, statusEl, thinkingEl), progressEl, practiceActions, resultEl, noticeEl, tallyEl);
  const side = h("div", { class: "rw-side" }, actionsEl, movesEl, reviewEl, settingsEl);
  root.append(main, side);
  el.append(root);

  // ---------- board ----------
  let n = 0;
  let squares = []; // index -> {name, g, mark, fill}
  const byName = new Map();
  let cursor = 0;
  let hover = null;
  let kbd = false; // keyboard mode: show the cursor and preview its flips
  let cursorEl = null;
  let arrowsLayer = null;
  let prevDiscs = null;
  const nameOf = (i) => FILES[i % n] + (Math.floor(i / n) + 1);

  function buildBoard() {
    n = clamp(get("board_size", 8) | 0, 4, 16);
    const coords = get("show_coordinates", true);
    const m = coords ? C * 0.6 : C * 0.2; // frame width; holds the coordinates when shown
    const W = n * C + 2 * m;
    board.setAttribute("viewBox", `0 0 ${W} ${W}`);
    board.replaceChildren();
    squares = [];
    byName.clear();

    const defs = s("defs");
    const marker = s("marker", { id: `${uid}-arrow`, viewBox: "0 0 10 10", refX: "5", refY: "5", markerWidth: "4", markerHeight: "4", orient: "auto-start-reverse" });
    marker.append(s("path", { d: "M0,0 L10,5 L0,10 z", class: "rw-arrowhead" }));
    const sheen = s("radialGradient", { id: `${uid}-sheen`, cx: "0.35", cy: "0.3", r: "0.75" });
    sheen.append(s("stop", { offset: "0", class: "rw-sheen-a" }), s("stop", { offset: "1", class: "rw-sheen-b" }));
    defs.append(marker, sheen);

    const grid = [];
    for (let i = 0; i <= n; i++) grid.push(`M${m + i * C},${m}v${n * C}`, `M${m},${m + i * C}h${n * C}`);
    board.append(defs,
      s("rect", { class: "rw-frame", x: 0, y: 0, width: W, height: W, rx: C * 0.18 }),
      s("rect", { class: "rw-field", x: m, y: m, width: n * C, height: n * C }));
    const under = s("g", { class: "rw-fills" });
    board.append(under, s("path", { class: "rw-grid", d: grid.join("") }));
    if (n >= 8) { // the four small dots of a real Othello board
      const pts = s("g", { class: "rw-stars", "aria-hidden": "true" });
      for (const a of [2, n - 2]) for (const b of [2, n - 2]) pts.append(s("circle", { cx: m + a * C, cy: m + b * C, r: C * 0.07 }));
      board.append(pts);
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
      board.append(cg);
    }
    for (let r = 0; r < n; r++) {
      const row = s("g", { role: "row" });
      for (let c = 0; c < n; c++) {
        const i = r * n + c;
        const name = FILES[c] + (r + 1);
        const g = s("g", { class: "rw-sq", role: "gridcell", id: `${uid}-${name}`, "data-square": name, "data-disc": "empty", transform: `translate(${m + c * C},${m + r * C})` });
        const fill = s("rect", { class: "rw-fill", x: 0, y: 0, width: C, height: C });
        under.append(fill); // fills sit under the grid lines
        fill.setAttribute("transform", `translate(${m + c * C},${m + r * C})`);
        const disc = s("g", { class: "rw-disc" });
        disc.append(s("circle", { class: "rw-disc-base", cx: C / 2, cy: C / 2, r: C * 0.41 }),
          s("circle", { class: "rw-disc-sheen", cx: C / 2, cy: C / 2, r: C * 0.41, fill: `url(#${uid}-sheen)` }));
        const mark = s("text", { class: "rw-mark", x: C / 2, y: C / 2 });
        const evalText = s("text", { class: "rw-eval", x: C / 2, y: C / 2 });
        g.append(
          s("rect", { class: "rw-cell", x: 0, y: 0, width: C, height: C }),
          s("circle", { class: "rw-dot", cx: C / 2, cy: C / 2, r: C * 0.11 }),
          disc,
          s("circle", { class: "rw-ring", cx: C / 2, cy: C / 2, r: C * 0.24 }),
          s("circle", { class: "rw-hint", cx: C / 2, cy: C / 2, r: C * 0.14 }),
          s("circle", { class: "rw-last", cx: C / 2, cy: C / 2, r: C * 0.085 }),
          s("circle", { class: "rw-hint-ring", cx: C / 2, cy: C / 2, r: C * 0.4 }),
          evalText,
          mark);
        row.append(g);
        squares.push({ name, g, mark, fill, evalText });
        byName.set(name, i);
      }
      board.append(row);
    }
    arrowsLayer = s("g", { class: "rw-arrows", "aria-hidden": "true" });
    cursorEl = s("rect", { class: "rw-cursor", x: 2, y: 2, width: C - 4, height: C - 4, rx: 4 });
    board.append(arrowsLayer, cursorEl);
    cursor = clamp(cursor, 0, n * n - 1);
    prevDiscs = get("discs", ""); // what is drawn now is what the next change animates from
    updateSquares();
    updateArrows();
    updateCursor();
  }

  function updateSquares() {
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
    const scores = get("scores", {}) || {};
    const scoreOf = (name) => (Object.prototype.hasOwnProperty.call(scores, name) ? String(scores[name]) : "");
    const ranked = Object.keys(scores); // Python sends the scores best first
    const bestScore = ranked.length ? scoreOf(ranked[0]) : null;
    for (let i = 0; i < squares.length; i++) {
      const { name, g, mark, fill, evalText } = squares[i];
      const disc = DISC[discs[i]] || "empty";
      const isLegal = showLegal && Object.prototype.hasOwnProperty.call(legal, name);
      g.setAttribute("data-disc", disc);
      flag(g, "data-legal", isLegal);
      flag(g, "data-last", name === last);
      flag(g, "data-flipped", flipped.has(name));
      flag(g, "data-practice", name === placed || turned.has(name), name === placed ? "placed" : "flipped");
      flag(g, "data-practice-mark", wrong.has(name) || missed.has(name), wrong.has(name) ? "wrong" : "missed");
      flag(g, "data-hint", hints.has(name));
      const score = scoreOf(name);
      flag(g, "data-score", !!score, score);
      flag(g, "data-score-best", !!score && score === bestScore);
      evalText.textContent = score;
      evalText.setAttribute("data-len", String(Math.min(score.length, 4)));
      const text = marks[name] == null ? "" : String(marks[name]);
      mark.textContent = text;
      mark.setAttribute("data-len", String(Math.min(text.length, 4)));
      if (text.length > 4) { // long marks (Python allows 12 chars) are squeezed into the square
        mark.setAttribute("textLength", String(C * 0.9));
        mark.setAttribute("lengthAdjust", "spacingAndGlyphs");
      } else mark.removeAttribute("textLength");
      fill.style.fill = fills[name] ? String(fills[name]) : ""; // invalid colours are dropped by the browser
      const words = [name, S(disc)];
      if (isLegal) words.push(S("legal"), `${S("flips")} ${(legal[name] || []).length}`);
      if (name === last) words.push(S("last_move"));
      else if (flipped.has(name)) words.push(S("flipped"));
      if (wrong.has(name)) words.push(S("practice_wrong"));
      else if (missed.has(name)) words.push(S("practice_missed"));
      if (score) words.push(`${S("score")} ${score}`);
      if (hints.has(name)) words.push(S("hint_move"));
      if (text) words.push(text);
      g.setAttribute("aria-label", words.join(", "));
    }
    updatePreview();
  }

  // ---------- flip animation (visual only: data-disc is already final) ----------
  let animTimer = null;
  const reducedMotion = () => typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
  function clearAnims() {
    if (animTimer) cancel(animTimer);
    animTimer = null;
    for (const { g } of squares) {
      if (g.hasAttribute("data-anim")) {
        g.removeAttribute("data-anim");
        g.classList.remove("rw-anim");
        g.removeAttribute("data-from");
        g.style.removeProperty("--rw-delay");
        g.style.removeProperty("--rw-dur");
      }
    }
  }
  function animate(prev, next) {
    clearAnims();
    const dur = SPEED[get("animation", "normal")];
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
      const p = placed[0];
      const dist = (i) => Math.max(Math.abs(Math.floor(i / n) - Math.floor(p / n)), Math.abs((i % n) - (p % n)));
      order = [p, ...changed.filter((i) => i !== p).sort((a, b) => dist(a) - dist(b))];
    }
    void board.getBoundingClientRect(); // restart CSS animations cut short by clearAnims()
    order.forEach((i, k) => {
      const g = squares[i].g;
      const kind = prev[i] === "-" ? "place" : next[i] === "-" ? "remove" : "flip";
      g.setAttribute("data-anim", kind);
      g.setAttribute("data-from", DISC[prev[i]] || "empty");
      g.classList.add("rw-anim");
      g.style.setProperty("--rw-delay", `${isMove ? k * dur : 0}ms`);
      g.style.setProperty("--rw-dur", `${dur}ms`);
    });
    animTimer = later(clearAnims, (isMove ? order.length : 1) * dur + 60);
  }
  function onDiscs() {
    const next = get("discs", "");
    updateSquares();
    // The demo and the discs arrive in one update, in either order: the demo, once started
    // for this position, owns the drawing.
    const demo = get("demo", {}) || {};
    const demoOwns = runDemo() || (demoActive && demo.id === demoSeen && demoFits(demo));
    if (!demoOwns) { clearDemo(); animate(prevDiscs, next); }
    prevDiscs = next;
  }

  // ---------- "show me": walk through a played move (visual only, like the animation) ----------
  // Python sends `demo` = {id, ply, move, color, lines}; each line runs from the move to its
  // closing disc (the last square). The disc lands, each line is lit in turn (data-demo-line on
  // its squares, data-demo-closer on the closing disc), then the flanked discs flip. Until their
  // turn they are painted in their old colour (data-demo-hold); data-disc is already final.
  let demoSeen = null;
  let demoActive = false;
  let demoTimers = [];
  let demoMarked = new Set();
  function clearDemo() {
    for (const t of demoTimers) cancel(t);
    demoTimers = [];
    for (const g of demoMarked) {
      for (const a of ["data-demo-line", "data-demo-closer", "data-demo-hold", "data-demo-move"]) g.removeAttribute(a);
    }
    demoMarked = new Set();
    demoActive = false;
    root.removeAttribute("data-demo");
  }
  function demoMark(name, attr, value = "") {
    const i = byName.get(name);
    if (i == null) return;
    squares[i].g.setAttribute(attr, value);
    demoMarked.add(squares[i].g);
  }
  function demoUnmark(attr) {
    for (const g of demoMarked) g.removeAttribute(attr);
  }
  // A demo belongs to the position after its move, or after forced passes that followed it.
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
    clearDemo();
    clearAnims();
    if (!get("show_me", false) || !Array.isArray(demo.lines)) return false;
    const lines = demo.lines.filter((l) => Array.isArray(l) && l.length >= 2);
    const showLine = (k) => {
      demoUnmark("data-demo-line");
      demoUnmark("data-demo-closer");
      lines[k].forEach((sq, j) => demoMark(sq, j === lines[k].length - 1 ? "data-demo-closer" : "data-demo-line", String(k)));
      root.setAttribute("data-demo", `line-${k}`);
    };
    demoActive = true;
    demoMark(demo.move, "data-demo-move");
    const dur = SPEED[get("animation", "normal")];
    if (!dur || reducedMotion()) { // no motion: the final position at once, every line lit
      lines.forEach((line, k) => line.forEach((sq, j) =>
        demoMark(sq, j === line.length - 1 ? "data-demo-closer" : "data-demo-line", String(k))));
      root.setAttribute("data-demo", "final");
      return true;
    }
    const from = demo.color === "black" ? "white" : "black";
    const flips = [...new Set(lines.flatMap((l) => l.slice(0, -1)))];
    for (const sq of flips) demoMark(sq, "data-demo-hold", from);
    demoMark(demo.move, "data-demo-hold", "empty");
    root.setAttribute("data-demo", "place");
    const at = (ms, fn) => demoTimers.push(later(fn, ms));
    const placeAnim = (name, kind, delay) => {
      const i = byName.get(name);
      if (i == null) return;
      const g = squares[i].g;
      g.removeAttribute("data-demo-hold");
      g.setAttribute("data-anim", kind);
      g.setAttribute("data-from", kind === "place" ? "empty" : from);
      g.classList.add("rw-anim");
      g.style.setProperty("--rw-delay", `${delay}ms`);
      g.style.setProperty("--rw-dur", `${dur}ms`);
    };
    placeAnim(demo.move, "place", 0);
    lines.forEach((_, k) => at(dur * (1 + DEMO_LINE_STEPS * k), () => showLine(k)));
    const flipAt = dur * (1 + DEMO_LINE_STEPS * lines.length);
    at(flipAt, () => {
      demoUnmark("data-demo-line");
      demoUnmark("data-demo-closer");
      root.setAttribute("data-demo", "flip");
      void board.getBoundingClientRect();
      const p = byName.get(demo.move) ?? 0;
      const dist = (name) => { const i = byName.get(name) ?? p; return Math.max(Math.abs(Math.floor(i / n) - Math.floor(p / n)), Math.abs((i % n) - (p % n))); };
      [...flips].sort((a, b) => dist(a) - dist(b)).forEach((sq, k) => placeAnim(sq, "flip", k * dur));
    });
    at(flipAt + flips.length * dur + 60, () => { clearDemo(); clearAnims(); });
    return true;
  }

  // ---------- hover / keyboard preview ----------
  let previewed = [];
  function updatePreview() {
    for (const g of previewed) g.removeAttribute("data-preview");
    previewed = [];
    const target = hover || (kbd && document.activeElement === board && squares[cursor] ? squares[cursor].name : null);
    const flips = target && get("show_flips", true) ? get("legal", {})[target] : null;
    if (!Array.isArray(flips)) return;
    const mark = (name, kind) => {
      const i = byName.get(name);
      if (i == null) return;
      squares[i].g.setAttribute("data-preview", kind);
      previewed.push(squares[i].g);
    };
    mark(target, "place");
    for (const f of flips) mark(f, "flip");
  }

  function updateCursor() {
    if (!cursorEl || !squares[cursor]) return;
    const t = squares[cursor].g.getAttribute("transform");
    cursorEl.setAttribute("transform", t);
    board.setAttribute("aria-activedescendant", squares[cursor].g.id);
    board.classList.toggle("rw-kbd", kbd);
    updatePreview();
  }

  // ---------- annotations: arrows ----------
  function updateArrows() {
    if (!arrowsLayer) return;
    arrowsLayer.replaceChildren();
    const centre = (name) => {
      const i = byName.get(name);
      if (i == null) return null;
      const t = squares[i].g.getAttribute("transform").match(/[-\d.]+/g).map(Number);
      return [t[0] + C / 2, t[1] + C / 2];
    };
    for (const pair of get("arrows", [])) {
      if (!Array.isArray(pair) || pair.length < 2) continue;
      const a = centre(pair[0]), b = centre(pair[1]);
      if (!a || !b || (a[0] === b[0] && a[1] === b[1])) continue;
      // Stop short of the centres so the arrow does not hide the discs' middles.
      const dx = b[0] - a[0], dy = b[1] - a[1], len = Math.hypot(dx, dy);
      const k0 = (C * 0.2) / len, k1 = (C * 0.28) / len;
      arrowsLayer.append(s("line", {
        class: "rw-arrow", "data-from": pair[0], "data-to": pair[1],
        x1: a[0] + dx * k0, y1: a[1] + dy * k0, x2: b[0] - dx * k1, y2: b[1] - dy * k1,
        "marker-end": `url(#${uid}-arrow)`,
      }));
    }
  }

  // ---------- board events ----------
  const squareOf = (ev) => { const g = ev.target.closest && ev.target.closest("[data-square]"); return g && board.contains(g) ? g : null; };
  // Any square is sent: Python explains refusals. While a practice disc waits for its flips,
  // a click turns (or turns back) the disc on that square instead.
  const play = (name) => send({ kind: get("practice_move", "") ? "practice_flip" : "move", square: name });
  board.addEventListener("click", (ev) => {
    const g = squareOf(ev);
    if (!g) return;
    const name = g.getAttribute("data-square");
    cursor = byName.get(name) ?? cursor;
    kbd = false;
    updateCursor();
    play(name);
  });
  board.addEventListener("pointerover", (ev) => {
    const g = squareOf(ev);
    const name = g ? g.getAttribute("data-square") : null;
    if (name !== hover) { hover = name; updatePreview(); }
  });
  board.addEventListener("pointerleave", () => { hover = null; updatePreview(); });
  board.addEventListener("pointerdown", () => { kbd = false; board.classList.remove("rw-kbd"); });
  board.addEventListener("blur", () => updatePreview());

  let digits = "", digitTimer = null;
  board.addEventListener("keydown", (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const k = ev.key;
    const r = Math.floor(cursor / n), c = cursor % n;
    const moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    let handled = true;
    if (moves[k]) {
      cursor = clamp(r + moves[k][0], 0, n - 1) * n + clamp(c + moves[k][1], 0, n - 1);
    } else if (k === "Home") cursor = r * n;
    else if (k === "End") cursor = r * n + n - 1;
    else if (k === "Enter" || k === " ") play(squares[cursor].name);
    else if (k === "u" || k === "U") send({ kind: "undo" });
    else if (k === "r" || k === "R") send({ kind: "redo" });
    else if (k.length === 1 && FILES.indexOf(k.toLowerCase()) >= 0 && FILES.indexOf(k.toLowerCase()) < n) {
      cursor = r * n + FILES.indexOf(k.toLowerCase()); // typed file letter: jump to that column
    } else if (/^[0-9]$/.test(k)) { // typed rank (one or two digits): jump to that row
      digits += k;
      if (digitTimer) cancel(digitTimer);
      digitTimer = later(() => { digits = ""; }, 900);
      let row = Number(digits);
      if (row < 1 || row > n) { digits = k; row = Number(k); }
      if (row >= 1 && row <= n) cursor = (row - 1) * n + c;
    } else handled = false;
    if (!handled) return;
    ev.preventDefault();
    ev.stopPropagation();
    kbd = true;
    updateCursor();
  });

  // ---------- side panel ----------
  for (const [action, b] of Object.entries(buttons)) {
    b.addEventListener("click", () => send({ kind: action === "new" ? "new_game" : action }));
  }
  pauseButton.addEventListener("click", () => send({ kind: get("paused", false) ? "resume" : "pause" }));
  reviewButton.addEventListener("click", () => send({ kind: "review" }));
  for (const [action, b] of Object.entries(practiceButtons)) b.addEventListener("click", () => send({ kind: action }));
  dismiss.addEventListener("click", () => { noticeEl.hidden = true; });

  moveList.addEventListener("click", (ev) => {
    const b = ev.target.closest && ev.target.closest("[data-ply]");
    if (b) requestJump(Number(b.getAttribute("data-ply")));
  });
  // Dragging the slider (or clicking fast) fires many jumps; keep one in flight and send the
  // latest target once Python has answered, so intents do not carry a stale ply.
  let jumpPending = null, jumpQueued = null;
  function requestJump(to) {
    if (jumpPending) { jumpQueued = to; return; }
    if (to === get("ply", 0)) return;
    send({ kind: "jump", to });
    jumpPending = later(releaseJump, 1500);
  }
  function releaseJump() {
    if (jumpPending) cancel(jumpPending);
    jumpPending = null;
    const q = jumpQueued;
    jumpQueued = null;
    if (q != null) requestJump(q);
  }
  replay.addEventListener("input", () => requestJump(Number(replay.value)));

  let moveButtons = [];
  function buildMoves() {
    const moves = get("moves", []);
    moveList.replaceChildren();
    let pair = null; // "12. d3 c5" wraps as one unit
    moveButtons = moves.map((mv, i) => {
      const ply = i + 1;
      if (i % 2 === 0) {
        pair = h("span", { class: "rw-pair" }, h("span", { class: "rw-num" }, `${ply / 2 + 0.5}.`));
        moveList.append(pair);
      }
      const b = h("button", { type: "button", class: "rw-move", "data-ply": String(ply) }, mv === "pass" ? S("pass_move") : String(mv));
      pair.append(b);
      return b;
    });
    if (!moves.length) moveList.append(h("span", { class: "rw-empty" }, S("no_moves")));
    replay.max = String(moves.length);
    markReview();
    updatePly();
  }
  // After a review: each move carries its loss (data-loss), a mark on bad moves ("?!", "?",
  // "??") and a tooltip naming the best move, all from `review_moves`.
  function markReview() {
    const entries = new Map();
    for (const e of get("review_moves", []) || []) if (e && typeof e.ply === "number") entries.set(e.ply, e);
    moveButtons.forEach((b, i) => {
      const e = entries.get(i + 1);
      const old = b.querySelector(".rw-annot");
      if (old) old.remove();
      const forced = !!(e && e.forced);
      flag(b, "data-loss", !!e && !forced && typeof e.loss === "number", e && String(e.loss));
      flag(b, "data-mark", !!(e && e.mark), e && String(e.mark));
      flag(b, "data-best", !!e && !forced, e && String(e.best));
      if (e && e.mark) b.append(h("span", { class: "rw-annot", "aria-hidden": "true" }, String(e.mark)));
      if (e && e.note) { // the tooltip, and the same words for screen readers
        b.setAttribute("title", String(e.note));
        b.setAttribute("aria-label", `${b.firstChild ? b.firstChild.textContent : ""}, ${e.note}`);
      } else {
        b.removeAttribute("title");
        b.removeAttribute("aria-label");
      }
    });
  }

  // The evaluation chart: x = ply (0..n), y = Black's margin on a scale symmetric about 0 (at least ±4).
  const CW = 300, CH = 90, PAD = 4;
  let chartPly = null;
  function drawChart() {
    const values = (get("evaluations", []) || []).map(Number).filter((v) => Number.isFinite(v));
    reviewEl.hidden = values.length < 2;
    chart.replaceChildren();
    if (values.length < 2) return;
    chart.setAttribute("viewBox", `0 0 ${CW} ${CH}`);
    const top = Math.max(4, ...values.map(Math.abs));
    const x = (i) => PAD + (i * (CW - 2 * PAD)) / (values.length - 1);
    const y = (v) => CH / 2 - (v / top) * (CH / 2 - PAD);
    const pts = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`);
    chart.append(
      s("rect", { class: "rw-chart-black", x: 0, y: 0, width: CW, height: CH / 2 }),
      s("line", { class: "rw-chart-zero", x1: 0, y1: CH / 2, x2: CW, y2: CH / 2 }),
      s("polygon", { class: "rw-chart-area", points: `${x(0)},${CH / 2} ${pts.join(" ")} ${x(values.length - 1)},${CH / 2}` }),
      s("polyline", { class: "rw-chart-line", points: pts.join(" ") }));
    chartPly = s("line", { class: "rw-chart-ply", x1: 0, y1: 0, x2: 0, y2: CH });
    chart.append(chartPly);
    const hits = s("g", { class: "rw-chart-points" });
    values.forEach((v, i) => {
      const dot = s("circle", { class: "rw-chart-point", cx: x(i), cy: y(v), r: 2.2, "data-ply": String(i), "data-value": String(v) });
      const tip = s("title");
      tip.textContent = `${i}: ${v > 0 ? "+" : ""}${v}`;
      dot.append(tip);
      hits.append(dot);
    });
    chart.append(hits);
    updateChartPly();
  }
  function updateChartPly() {
    const n = (get("evaluations", []) || []).length;
    if (!chartPly || n < 2) return;
    const ply = clamp(get("ply", 0), 0, n - 1);
    const px = PAD + (ply * (CW - 2 * PAD)) / (n - 1);
    chartPly.setAttribute("x1", px);
    chartPly.setAttribute("x2", px);
    chartPly.setAttribute("data-ply", String(ply));
  }
  chart.addEventListener("click", (ev) => { // a click jumps to the nearest position
    const n = (get("evaluations", []) || []).length;
    const box = chart.getBoundingClientRect();
    if (n < 2 || !box.width) return;
    const at = ((ev.clientX - box.left) / box.width) * CW;
    requestJump(clamp(Math.round(((at - PAD) * (n - 1)) / (CW - 2 * PAD)), 0, Math.min(n - 1, get("moves", []).length)));
  });
  function updatePly() {
    const ply = get("ply", 0);
    const total = get("moves", []).length;
    let current = null;
    moveButtons.forEach((b, i) => {
      flag(b, "data-future", i + 1 > ply);
      flag(b, "aria-current", i + 1 === ply, "step");
      if (i + 1 === ply) current = b;
    });
    replay.value = String(ply);
    moveCount.textContent = `${ply} / ${total}`;
    updateChartPly();
    if (current) { // keep the current move visible without scrolling the notebook
      const top = current.offsetTop - moveList.offsetTop;
      if (top < moveList.scrollTop || top + current.offsetHeight > moveList.scrollTop + moveList.clientHeight) {
        moveList.scrollTop = top - moveList.clientHeight / 2;
      }
    }
  }

  function updatePlayers() {
    const players = get("players", {}), counts = get("counts", {}), supply = get("supply", {});
    const countLabels = get("count_labels", {}); // "12 discs", "12 pionków": plurals come from Python
    const turn = get("turn", "");
    for (const c of COLORS) {
      const card = cards[c];
      card.name.textContent = players[c] == null ? "" : String(players[c]);
      card.count.textContent = String(counts[c] ?? 0);
      const countText = countLabels[c] ? String(countLabels[c]) : card.count.textContent;
      card.supply.textContent = supply && supply[c] != null ? `${supply[c]} ${S("supply")}` : "";
      card.supply.hidden = !(supply && supply[c] != null);
      flag(card.el, "data-turn", turn === c);
      card.count.setAttribute("title", countText);
      card.el.setAttribute("aria-label", [S(c), card.name.textContent, countText,
        card.supply.textContent, turn === c ? S("to_move") : ""].filter(Boolean).join(", "));
    }
    root.setAttribute("data-turn", turn || "none");
  }

  function updateStatus() {
    statusEl.textContent = String(get("status", ""));
    const thinking = !!get("thinking", false);
    thinkingEl.hidden = !thinking;
    flag(root, "data-thinking", thinking);
    const over = !!get("game_over", false);
    const result = over ? String(get("result", "")) : "";
    resultEl.hidden = !result;
    resultEl.textContent = result;
    flag(root, "data-game-over", over);
  }

  let lastNoticeId = null;
  function updateNotice() {
    const text = String(get("notice", ""));
    const id = get("notice_id", 0);
    noticeEl.setAttribute("data-kind", get("notice_kind", "info") || "info");
    noticeText.textContent = text;
    if (!text) { noticeEl.hidden = true; lastNoticeId = id; return; }
    if (id !== lastNoticeId) { // news: show again even if dismissed, and replay the flash
      noticeEl.hidden = false;
      noticeEl.classList.remove("rw-flash");
      void noticeEl.offsetWidth;
      noticeEl.classList.add("rw-flash");
    }
    lastNoticeId = id;
  }

  function updatePractice() {
    const pending = !!get("practice_move", "");
    practiceActions.hidden = !pending;
    flag(root, "data-practice-pending", pending);
    tally.mistakes.textContent = String(get("practice_mistakes", 0));
    tally.moves.textContent = String(get("practice_moves", 0));
    tallyEl.hidden = !get("practice", false) && !get("practice_moves", 0);
  }

  function updateButtons() {
    buttons.undo.disabled = !get("can_undo", false);
    buttons.redo.disabled = !get("can_redo", false);
    // Pass stays enabled (Python refuses an illegal pass) but is highlighted when it is the only move.
    const turn = get("turn", "");
    flag(buttons.pass, "data-suggested", !!turn && Object.keys(get("legal", {})).length === 0 && !get("thinking", false));
    // A hint needs a human to move with a choice: Python refuses the rest, the button says so first.
    buttons.hint.disabled = !turn || Object.keys(get("legal", {})).length === 0;
    const paused = !!get("paused", false);
    pauseButton.hidden = !get("can_pause", false);
    pauseButton.textContent = S(paused ? "resume" : "pause");
    pauseButton.setAttribute("aria-pressed", String(paused));
    flag(root, "data-paused", paused);
    reviewButton.hidden = !get("can_review", false);
  }

  function updateProgress() {
    const busy = String(get("busy", "") || "");
    const fraction = clamp(Number(get("progress", 0)) || 0, 0, 1);
    progressEl.hidden = !busy;
    flag(root, "data-busy", !!busy, busy);
    progressLabel.textContent = busy ? S(`busy_${busy}`) || "" : "";
    progressBar.value = fraction;
    progressBar.setAttribute("aria-valuetext", `${Math.round(fraction * 100)}%`);
    progressBar.setAttribute("aria-label", progressLabel.textContent);
  }

  function updateSettings() {
    for (const k of ["show_legal", "show_flips", "show_coordinates"]) settings[k].checked = !!get(k, true);
    for (const k of ["show_me", "practice", "show_scores"]) settings[k].checked = !!get(k, false);
    root.setAttribute("lang", String(get("language", "en") || "en"));
    settings.animation.value = get("animation", "normal");
    settings.theme.value = get("theme", "auto");
    root.setAttribute("data-theme", get("theme", "auto"));
    root.setAttribute("data-animation", get("animation", "normal"));
    const size = get("size", null);
    if (size) root.style.setProperty("--rw-board-size", `${size}px`);
    else root.style.removeProperty("--rw-board-size");
    flag(root, "data-sized", !!size);
  }

  // ---------- wiring ----------
  const on = (names, fn) => { for (const k of names.split(" ")) listen(`change:${k}`, fn); };
  on("board_size show_coordinates", buildBoard);
  on("discs", onDiscs);
  on("legal show_legal last_move last_flips marks fill hints scores", () => { updateSquares(); updateButtons(); });
  on("show_flips", updatePreview);
  on("arrows", updateArrows);
  on("players counts count_labels supply turn", () => { updatePlayers(); updateButtons(); });
  on("practice_move practice_flips practice_wrong practice_missed", () => { updateSquares(); updatePractice(); });
  on("practice practice_mistakes practice_moves", updatePractice);
  on("demo", () => { if (runDemo()) prevDiscs = get("discs", ""); });
  on("status thinking game_over result", () => { updateStatus(); updateButtons(); });
  on("notice notice_kind notice_id", updateNotice);
  on("can_undo can_redo can_pause can_review paused", updateButtons);
  on("busy progress", updateProgress);
  on("moves", buildMoves);
  on("review_moves", markReview);
  on("evaluations", drawChart);
  on("ply", () => { updatePly(); releaseJump(); });
  on("show_legal show_flips show_coordinates show_me practice show_scores animation theme size language", updateSettings);
  on("strings", () => { applyLabels(); updateSquares(); updatePlayers(); buildMoves(); updateButtons(); updateProgress(); });
  listen("msg:custom", (msg) => { if (msg && msg.kind === "refused") releaseJump(); });

  applyLabels();
  updateSettings();
  buildBoard();
  updatePlayers();
  updateStatus();
  lastNoticeId = get("notice_id", 0); // an old notice is not news for a fresh view...
  updateNotice();
  noticeEl.hidden = !get("notice", ""); // ...but still shown if set
  updateButtons();
  updatePractice();
  updateProgress();
  buildMoves();
  drawChart();
  demoSeen = (get("demo", {}) || {}).id ?? null; // a fresh view does not replay an old walk-through
  cursor = (n / 2 - 1) * n + n / 2 - 1; // start in the middle (upper-left centre square)
  updateCursor();

  return () => {
    for (const off of offs) off();
    for (const t of timers) clearTimeout(t);
    timers.clear();
    root.remove();
  };
}

export default { render };
