// The lobby's "Your tables": the seat links this browser holds (seats.js), asked about in one
// POST /api/my-tables with the tokens in the body. The server answers with public facts and
// whether each seat is to move, your turn first; the open tables to watch follow below.
// It asks again every second while the lobby is looked at, at once when it is looked at again
// (the tab shown, the window focused), and every few seconds in the background, where the tab's
// title and icon say when one of your tables awaits you (docs/server.md, "Your tables").
import { el } from "./dom.js";
import { SEATS_CHANGED, forgetSeats, savedSeats } from "./seats.js";

const LOOKED_AT_MS = 1000; // a turn that comes shows within about a second
const BACKGROUND_MS = 5000; // browsers slow background timers down anyway
const LOBBY_TITLE = document.title;
const $ = (id) => document.getElementById(id);

function statusText(table) {
  if (table.your_turn) return "your turn";
  if (table.status === "over") return table.rematch ? "over · rematch started" : "over";
  const waiting = table.to_move.map((s) => `seat ${s}`).join(", ");
  return waiting ? `waiting for ${waiting}` : "waiting";
}

function row(table, saved) {
  const href = `/table/${encodeURIComponent(table.id)}#token=${encodeURIComponent(saved.token)}`;
  const forget = () => forgetSeats([saved.token]);
  return el("tr", { class: table.your_turn ? "your-turn" : null, "data-table": table.id,
    "data-your-turn": table.your_turn ? "yes" : "no" },
  el("td", {}, table.name, el("br"), el("code", { class: "muted", text: table.id })),
  el("td", { text: `seat ${table.seat}${saved.opened ? "" : " (a link you created)"}` }),
  el("td", {}, el("span", { class: "badge", text: statusText(table) }), el("br"),
    el("small", { class: "muted", text: `move ${table.step}` })),
  el("td", {}, el("a", { href, text: table.your_turn ? "play" : "open" }), " ",
    el("button", { type: "button", class: "secondary forget", onclick: forget,
      title: "forget this seat link in this browser" }, "forget")));
}

// The lobby's tab, like a table's, says when it is your turn somewhere.
function renderTitle(waiting) {
  const tables = waiting > 1 ? ` at ${waiting} tables` : "";
  document.title = waiting ? `(●) Your turn${tables} — intrigue` : LOBBY_TITLE;
  const icon = document.querySelector('link[rel="icon"]');
  const href = `/static/${waiting ? "favicon-turn.svg" : "favicon.svg"}`;
  if (icon && icon.getAttribute("href") !== href) icon.setAttribute("href", href);
}

let drawn = null; // what the rows show: they are drawn again only when it changes (the focus stays)

function show(tables, seats) {
  const now = JSON.stringify(tables.map((t) => [t, seats[t.index].token, seats[t.index].opened]));
  renderTitle(tables.filter((t) => t.your_turn).length);
  $("your-tables").hidden = tables.length === 0;
  if (now === drawn) return;
  drawn = now;
  document.querySelector("#my-tables tbody").replaceChildren(...tables.map((t) => row(t, seats[t.index])));
}

async function update() {
  const seats = savedSeats();
  if (!seats.length) {
    show([], seats);
    return;
  }
  const response = await fetch("/api/my-tables", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ tokens: seats.map((s) => s.token) }),
  }).catch(() => null);
  if (!response?.ok) return; // keep what is shown; try again later
  const { tables, unknown } = await response.json();
  // Links the server does not know (a reset database) would never work again.
  forgetSeats(unknown.map((i) => seats[i].token));
  show(tables, seats);
}

// One request at a time: a refresh asked for meanwhile runs when the current one is done.
let timer = null;
let busy = false;
let again = false;

async function refresh() {
  if (busy) {
    again = true;
    return;
  }
  busy = true;
  clearTimeout(timer);
  try {
    await update();
  } finally {
    busy = false;
    timer = setTimeout(refresh, again ? 0 : document.hidden ? BACKGROUND_MS : LOOKED_AT_MS);
    again = false;
  }
}

window.addEventListener(SEATS_CHANGED, refresh);
window.addEventListener("storage", refresh); // another tab opened or created a seat
window.addEventListener("focus", refresh);
document.addEventListener("visibilitychange", () => {
  if (!document.hidden) refresh();
});
refresh();
