// The lobby's "Your tables": the seat links this browser holds (seats.js), asked about in one
// POST /api/my-tables with the tokens in the body. The server answers with public facts and
// whether each seat is to move, your turn first; the open tables to watch follow below.
import { el } from "./dom.js";
import { SEATS_CHANGED, forgetSeats, savedSeats } from "./seats.js";

const REFRESH_MS = 5000;
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

async function refresh() {
  const seats = savedSeats();
  if (!seats.length) {
    $("your-tables").hidden = true;
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
  document.querySelector("#my-tables tbody").replaceChildren(...tables.map((t) => row(t, seats[t.index])));
  $("your-tables").hidden = tables.length === 0;
}

window.addEventListener(SEATS_CHANGED, refresh);
window.addEventListener("storage", refresh); // another tab opened or created a seat
refresh();
setInterval(refresh, REFRESH_MS);
