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

export function cap(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
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
