// What just happened, on the board (issue #17, item 4): the log entries since this seat's last
// move (the table page), of the shown step (the replay) or the latest ones (the table screen)
// are turned by each game's renderer into marks, drawn over its board:
//   move   → a solid arrow from where a piece was to a ring where it is now
//   attack → a dashed red arrow to a burst on the target (a label may give the damage)
//   swap   → a dash-dotted line with a head at each end
//   place  → corner brackets round the square where something was put
//   fight  → a burst with a label (won, lost…) where pieces fought
//   look   → a dotted circle (a card inspected or turned face up)
//   gone   → a cross where something was killed, destroyed or left
// Shapes differ, not only colours. A piece that moved slides in from where it was once, when
// the update arrives (never under prefers-reduced-motion: see style.css).
// Marks are made from the seat's own log entries only, so they show nothing it may not know.
import { svg } from "./dom.js";

const recent = { entries: [], before: null, fresh: false, drawn: 0 };
const MOVING = new Set(["move", "swap"]);

// The table page (and the replay, the screen) say what is recent before drawing the board:
// `entries` are log entries ({event, text}), `before` the view when the window opened (or
// null), `fresh` whether they just arrived (then moved pieces slide in).
export function setRecent(entries, before = null, fresh = false) {
  recent.entries = entries.filter((entry) => entry.event);
  recent.before = before;
  recent.fresh = fresh;
  recent.drawn = 0;
}

// How many marks the last board drawn carries (the page's summary line mentions them).
export function marksDrawn() {
  return recent.drawn;
}

const fmt = (n) => Math.round(n * 10) / 10;

function arrowHead([x1, y1], [x2, y2], size) {
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  const back = [x2 - ux * size, y2 - uy * size];
  const points = [[x2, y2], [back[0] - uy * size * 0.55, back[1] + ux * size * 0.55],
    [back[0] + uy * size * 0.55, back[1] - ux * size * 0.55]];
  return points.map((p) => p.map(fmt).join(",")).join(" ");
}

function shorten([x1, y1], [x2, y2], by) {
  // The segment from `a` to `b`, pulled in by `by` at each end (arrows stop short of pieces).
  const len = Math.hypot(x2 - x1, y2 - y1);
  if (len <= by * 2.5) return [[x1, y1], [x2, y2]];
  const [ux, uy] = [(x2 - x1) / len, (y2 - y1) / len];
  return [[x1 + ux * by, y1 + uy * by], [x2 - ux * by, y2 - uy * by]];
}

function burst([cx, cy], r) {
  const points = [];
  for (let i = 0; i < 16; i += 1) {
    const radius = i % 2 ? r * 0.5 : r;
    const angle = (Math.PI * i) / 8 - Math.PI / 2;
    points.push([cx + radius * Math.cos(angle), cy + radius * Math.sin(angle)].map(fmt).join(","));
  }
  return svg("polygon", { class: "lm-burst", points: points.join(" ") });
}

function brackets([cx, cy], r) {
  const k = r * 0.45;
  const corner = (sx, sy) => `M${fmt(cx + sx * r)},${fmt(cy + sy * (r - k))} L${fmt(cx + sx * r)},${fmt(cy + sy * r)} `
    + `L${fmt(cx + sx * (r - k))},${fmt(cy + sy * r)}`;
  return svg("path", { class: "lm-brackets", d: [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([sx, sy]) => corner(sx, sy)).join(" ") });
}

function label([cx, cy], text, unit) {
  return text ? svg("text", { class: "lm-label", x: fmt(cx), y: fmt(cy - unit * 0.28), "text-anchor": "middle",
    "font-size": fmt(Math.max(9, unit * 0.26)), text }) : null;
}

function line(kind, from, to, unit) {
  const [a, b] = shorten(from, to, unit * 0.32);
  const parts = [svg("line", { class: `lm-line lm-${kind}`, x1: fmt(a[0]), y1: fmt(a[1]), x2: fmt(b[0]), y2: fmt(b[1]) }),
    svg("polygon", { class: `lm-head lm-${kind}`, points: arrowHead(a, b, unit * 0.22) })];
  if (kind === "swap") parts.push(svg("polygon", { class: `lm-head lm-${kind}`, points: arrowHead(b, a, unit * 0.22) }));
  return parts;
}

function shape(mark, at, from, unit) {
  const r = unit * 0.46;
  const parts = from && (mark.kind !== "place") ? line(mark.kind, from, at, unit) : [];
  if (mark.kind === "move") parts.push(svg("circle", { class: "lm-ring", cx: fmt(at[0]), cy: fmt(at[1]), r: fmt(r) }));
  else if (mark.kind === "attack" || mark.kind === "fight") parts.push(burst(at, r * 0.75));
  else if (mark.kind === "place") parts.push(brackets(at, r));
  else if (mark.kind === "look") parts.push(svg("circle", { class: "lm-look", cx: fmt(at[0]), cy: fmt(at[1]), r: fmt(r) }));
  else if (mark.kind === "gone") {
    const k = r * 0.6;
    parts.push(svg("path", { class: "lm-gone", d: `M${fmt(at[0] - k)},${fmt(at[1] - k)} L${fmt(at[0] + k)},${fmt(at[1] + k)} `
      + `M${fmt(at[0] + k)},${fmt(at[1] - k)} L${fmt(at[0] - k)},${fmt(at[1] + k)}` }));
  }
  parts.push(label(at, mark.label, unit));
  return parts;
}

// The marks layer for `marks` ({kind, at, from?, label?, text?}); `centreOf(place)` gives a
// place's centre in the board's units (null: not on this board), `unit` a square's size.
function layer(marks, centreOf, unit) {
  const groups = [];
  marks.forEach((mark, i) => {
    const at = centreOf(mark.at);
    if (!at) return;
    const from = mark.from ? centreOf(mark.from) : null;
    groups.push(svg("g", { class: `lm lm-kind-${mark.kind}`, "data-mark": mark.kind, "data-at": mark.at,
      "data-from": mark.from ?? null, "data-order": i },
    mark.text ? svg("title", { text: mark.text }) : null, ...shape(mark, at, from, unit)));
  });
  return groups.length ? svg("g", { class: "last-moves", "aria-hidden": "true" }, ...groups) : null;
}

function slideIn(root, marks, centreOf) {
  // The piece now standing at a move's end slides in from its start (the latest move there).
  const seen = new Set();
  for (const mark of [...marks].reverse()) {
    if (!MOVING.has(mark.kind) || !mark.from || seen.has(mark.at)) continue;
    seen.add(mark.at);
    const [to, from] = [centreOf(mark.at), centreOf(mark.from)];
    const piece = to && from ? root.querySelector(`[data-piece-at="${CSS.escape(mark.at)}"]`) : null;
    if (!piece) continue;
    piece.style.setProperty("--from-x", `${fmt(from[0] - to[0])}px`);
    piece.style.setProperty("--from-y", `${fmt(from[1] - to[1])}px`);
    piece.classList.add("arriving");
  }
}

// Draw the recent marks on `root` (the board's svg): `marksOf(entries, before)` is the game's
// reading of the log entries. Pieces carry data-piece-at="<place>" to slide in.
export function drawRecent(root, marksOf, centreOf, unit) {
  const marks = recent.entries.length ? marksOf(recent.entries, recent.before) : [];
  const drawn = layer(marks, centreOf, unit);
  recent.drawn = drawn ? drawn.childElementCount : 0;
  if (!drawn) return;
  root.append(drawn);
  if (recent.fresh) slideIn(root, marks, centreOf);
  recent.fresh = false; // once: a redraw (a click) does not slide the pieces again
}
