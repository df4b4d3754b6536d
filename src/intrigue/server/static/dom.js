// Small DOM helpers shared by the table page and the board renderers.
export const SVG_NS = "http://www.w3.org/2000/svg";

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export function el(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

export function svg(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

// A scrolling box (wide tables on a phone): focusable, so a keyboard can scroll it too.
export const SCROLL = { class: "scroll", tabindex: 0, role: "region", "aria-label": "table, scrolls sideways" };

export function cap(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

// A log line for an event the game gave no text for: its kind in words, never the raw event.
export function eventWords(kind) {
  return `${cap(String(kind ?? "event").replaceAll("_", " "))}.`;
}

// "Game over: seat 1 wins." / "seat 0 and seat 2 win" / "a draw" (no winners at all) / "a draw
// among seat 0 and seat 2" (the seats with a negative return were out before the end).
export function gameOverText(winners, returns = []) {
  if (!winners.length) {
    const drawn = returns.flatMap((r, s) => (r < 0 ? [] : [s]));
    const some = drawn.length && drawn.length < returns.length;
    return some ? `Game over: a draw among ${seatWords(drawn)}.` : "Game over: a draw.";
  }
  return `Game over: ${seatWords(winners)} ${winners.length > 1 ? "win" : "wins"}.`;
}

// "seat 1" / "seat 0 and seat 2" / "seat 0, seat 2 and seat 3".
function seatWords(seats) {
  const names = seats.map((s) => `seat ${s}`);
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0];
}

export function seatName(seat, view) {
  return seat === view.seat ? `seat ${seat} (you)` : `seat ${seat}`;
}

export function seatList(seats, view) {
  return seats.length ? seats.map((s) => seatName(s, view)).join(", ") : "nobody";
}

export function jsonBlock(value) {
  return el("pre", { class: "json", text: JSON.stringify(value, null, 1) });
}
