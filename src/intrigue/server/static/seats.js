// The seat links this browser created or opened, kept in localStorage. There are no accounts:
// a player is whoever holds a seat's link. The tokens stay in this browser; they travel only
// in request bodies (POST /api/my-tables) and on the WebSocket a seat page opens.
const KEY = "intrigue.seats";
const LIMIT = 100; // the most recent links kept
export const SEATS_CHANGED = "intrigue:seats-changed";

export function savedSeats() {
  try {
    const seats = JSON.parse(localStorage.getItem(KEY) ?? "[]");
    return Array.isArray(seats) ? seats.filter((s) => s && typeof s.token === "string") : [];
  } catch {
    return []; // storage disabled or damaged: no remembered tables
  }
}

function store(seats) {
  try {
    localStorage.setItem(KEY, JSON.stringify(seats.slice(0, LIMIT)));
  } catch {
    return; // storage full or disabled: the page still works, it just forgets
  }
  window.dispatchEvent(new Event(SEATS_CHANGED));
}

// Remember (or refresh) a seat link; `opened` marks a link this browser played, as opposed to
// one it only created (perhaps to send to a friend).
export function rememberSeat({ table, token, opened = false }) {
  if (!table || !token) return;
  const old = savedSeats();
  const known = old.find((s) => s.token === token);
  const entry = { table, token, opened: opened || Boolean(known?.opened), saved: Date.now() };
  store([entry, ...old.filter((s) => s.token !== token)]);
}

export function forgetSeats(tokens) {
  const gone = new Set(tokens);
  if (gone.size) store(savedSeats().filter((s) => !gone.has(s.token)));
}

// A seat link opened here was claimed (issue 18, item 4): the server gave this browser a secret
// of its own, which replaces the link's token; the invite is kept beside it (it opens nothing
// any more) so that opening the same link again finds the seat.
export function claimSeat({ table, invite, token }) {
  if (!table || !token) return;
  const old = savedSeats().filter((s) => s.token !== invite && s.token !== token);
  store([{ table, token, invite, opened: true, saved: Date.now() }, ...old]);
}

// Remember which seat a claimed secret opens (a reload finds it by the table and the seat).
export function setSeatNumber(token, seat) {
  const seats = savedSeats();
  const entry = seats.find((s) => s.token === token);
  if (entry && entry.seat !== seat) {
    entry.seat = seat;
    store(seats);
  }
}
