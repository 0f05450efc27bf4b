"""Contrast of the board's markers as the browser paints them (WCAG 2 contrast ratio).

``MEASURE`` runs in the page on one widget's root. For each marker it finds on the board it
takes the computed fill and stroke, with every opacity on the way to the SVG, lays them
over what the marker is drawn on (the board's field, or the disc under it), and returns the
better of the two ratios: a shape is seen by its fill or by its edge, and an edge counts
only when it is at least one CSS pixel wide. Text is measured by its fill alone.

The markers must be on the board when ``MEASURE`` runs; a marker it cannot find is left out,
so the caller checks which ones came back.
"""

from __future__ import annotations

#: WCAG 2.1 AA: 3:1 for the parts of graphics needed to understand them (1.4.11), 4.5:1 for
#: text (1.4.3).
GRAPHICS_AA = 3.0
TEXT_AA = 4.5

#: Colour arithmetic shared by both measures: parse a computed colour, lay one colour over
#: another, and the WCAG ratio of two colours.
_COLOURS = """
  const parse = (text) => {
    if (!text || text === 'none') return null;
    let m = text.match(/rgba?\\(([^)]+)\\)/);
    if (m) {
      const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
      return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
    }
    m = text.match(/color\\(srgb ([^)]+)\\)/);
    if (m) {
      const p = m[1].split(/[ /]+/).filter(Boolean).map(Number);
      return [p[0] * 255, p[1] * 255, p[2] * 255, p.length > 3 ? p[3] : 1];
    }
    throw new Error('unknown colour ' + text);
  };
  const over = (fg, bg) => fg.slice(0, 3).map((c, i) => c * fg[3] + bg[i] * (1 - fg[3])).concat([1]);
  const channel = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * channel(c[0]) + 0.7152 * channel(c[1]) + 0.0722 * channel(c[2]);
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return Math.round(((x + 0.05) / (y + 0.05)) * 100) / 100;
  };
  const opacity = (el, top) => {
    let o = 1;
    for (let e = el; e && e !== top; e = e.parentElement) o *= Number(getComputedStyle(e).opacity);
    return o;
  };
"""

MEASURE = (
    """(rootSelector) => {
"""
    + _COLOURS
    + """
  const root = document.querySelector(rootSelector);
  const svg = root.querySelector('.rw-board');
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width; // CSS px per unit
  const visible = (el) => {
    const st = getComputedStyle(el);
    return st.visibility === 'visible' && st.display !== 'none' && opacity(el, svg.parentElement) > 0;
  };
  const paint = (el, prop) => {
    const st = getComputedStyle(el);
    const c = parse(st[prop]);
    if (!c) return null;
    return [c[0], c[1], c[2], c[3] * Number(st[prop + 'Opacity']) * opacity(el, svg.parentElement)];
  };
  const field = parse(getComputedStyle(root.querySelector('.rw-field')).fill);
  const discColour = (sq) => {
    const base = sq.querySelector('.rw-disc-base');
    return sq.dataset.disc === 'empty' ? field : over(paint(base, 'fill'), field);
  };
  // the better of fill and edge, each laid over the background
  const shape = (el, bg) => {
    let best = 0;
    const fill = paint(el, 'fill');
    if (fill && fill[3] > 0) best = Math.max(best, ratio(over(fill, bg), bg));
    const stroke = paint(el, 'stroke');
    const width = parseFloat(getComputedStyle(el).strokeWidth) * scale;
    if (stroke && stroke[3] > 0 && width >= 1) best = Math.max(best, ratio(over(stroke, bg), bg));
    return best;
  };
  const out = {};
  const first = (selector) => [...root.querySelectorAll(selector)].find(visible);
  const add = (name, selector, background, measure = shape) => {
    const el = first(selector);
    if (el) out[name] = measure(el, background(el.closest('[data-square]')));
  };
  const text = (el, bg) => ratio(over(paint(el, 'fill'), bg), bg);
  const onField = () => field;
  const turn = root.getAttribute('data-turn');
  add('legal dot (' + turn + ' to move)', '[data-legal] .rw-dot', onField);
  add('hint ring', '[data-hint] .rw-hint-ring', onField);
  add('last move on black', '[data-last][data-disc=black] .rw-last', discColour);
  add('last move on white', '[data-last][data-disc=white] .rw-last', discColour);
  add('flipped ring on black', '[data-flipped][data-disc=black] .rw-ring', discColour);
  add('flipped ring on white', '[data-flipped][data-disc=white] .rw-ring', discColour);
  add('score', '[data-score]:not([data-score-best]) .rw-eval', onField, text);
  add('best score', '[data-score-best] .rw-eval', onField, text);
  // practice marks outline the square: their edge lies on the field
  add('wrong flip mark', '[data-practice-mark=wrong] .rw-cell', onField);
  add('missed flip mark', '[data-practice-mark=missed] .rw-cell', onField);
  // the concept overlay: a side's marker in the square's corner, the other kinds' frames and
  // the X-square's cross, on the field around the disc
  for (const kind of ['black', 'white', 'both']) {
    add('concept ' + kind, `[data-concept-mark=${kind}] .rw-concept-pip`, onField);
  }
  for (const kind of ['odd', 'even', 'corner', 'x_square', 'c_square']) {
    add('concept ' + kind, `[data-concept-mark=${kind}] .rw-concept-frame`, onField);
  }
  add('concept x_square cross', '[data-concept-mark=x_square] .rw-concept-cross', onField);
  // the best line's ghost discs (by fill or dashed edge) on the field, and their numbers on
  // the ghost as painted over the field
  for (const color of ['black', 'white']) {
    const ghost = [...root.querySelectorAll(`.rw-ghost[data-color=${color}] .rw-ghost-disc`)].find(visible);
    if (!ghost) continue;
    out['ghost ' + color] = shape(ghost, field);
    const num = ghost.parentElement.querySelector('.rw-ghost-num');
    out['ghost number on ' + color] = text(num, over(paint(ghost, 'fill'), field));
  }
  const cursor = [...root.querySelectorAll('.rw-cursor')].find(visible);
  if (cursor) out['keyboard cursor'] = shape(cursor, field);
  const arrow = [...root.querySelectorAll('.rw-arrow')].find(visible);
  if (arrow) out['arrow'] = shape(arrow, field);
  // Legal dots must not be drawn through a score: where both are, the dot is hidden.
  out['dots under scores'] = [...root.querySelectorAll('[data-score][data-legal] .rw-dot')].filter(visible).length;
  // The player chips against their card.
  for (const color of ['black', 'white']) {
    const chip = root.querySelector(`.rw-player[data-color=${color}] .rw-chip`);
    const card = parse(getComputedStyle(chip.parentElement).backgroundColor);
    let bg = card;
    if (bg[3] < 1) { // a transparent card shows the widget's background
      bg = over(bg, parse(getComputedStyle(root).backgroundColor));
    }
    const st = getComputedStyle(chip);
    const fillRatio = ratio(over(parse(st.backgroundColor), bg), bg);
    const edge = parse(st.borderTopColor);
    const edgeRatio = parseFloat(st.borderTopWidth) >= 1 ? ratio(over(edge, bg), bg) : 0;
    out[color + ' chip'] = Math.max(fillRatio, edgeRatio);
  }
  // Star points and legal dots: told apart by size.
  const star = root.querySelector('.rw-stars circle');
  const dot = root.querySelector('.rw-dot');
  if (star) out['legal dot / star point size'] = Math.round((dot.r.baseVal.value / star.r.baseVal.value) * 100) / 100;
  return out;
}"""
)

#: Every text of the widget against what it is drawn on (for the high-contrast theme).
TEXTS = (
    """(rootSelector) => {
"""
    + _COLOURS
    + """
  const root = document.querySelector(rootSelector);
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let bg = [255, 255, 255, 1];
    for (const c of layers.reverse()) bg = over(c, bg);
    return bg;
  };
  const out = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    // WCAG sets no contrast for a disabled control; the board's own texts are measured above
    if (!n.textContent.trim() || el.closest('svg, [hidden], :disabled') || !el.getClientRects().length) continue;
    const st = getComputedStyle(el);
    if (st.visibility !== 'visible') continue;
    const fg = parse(st.color);
    const bg = background(el);
    const seen = over([fg[0], fg[1], fg[2], fg[3] * opacity(el, root.parentElement)], bg);
    out.push([n.textContent.trim().slice(0, 30), ratio(seen, bg)]);
  }
  return out;
}"""
)
