// Clocks and leavers. On the table page: a countdown for each seat to move (from the deadlines
// the server sends in `table`), who is played by a stand-in bot, a button to take one's seat
// back, and votes to let a bot play a seat whose player is away. The server's notes (a bot moved
// for a seat out of time, a seat replaced or reclaimed) go into the log. In the lobby: the time
// control and clock bot of a new table.
import { el } from "./dom.js";

const LOW_SECONDS = 10; // the countdown turns urgent below this

// "1:05", "0:09", "3 h 20 min", "2 d 4 h".
export function formatLeft(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  if (s >= 86400) return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
  if (s >= 3600) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function describeControl(clock) {
  if (!clock || clock.mode === "none") return "";
  const bot = `a ${clock.bot} bot moves for a seat whose time runs out`;
  if (clock.mode === "turn-based") return `Turn-based: ${clock.hours} h per move; ${bot}.`;
  const per = clock.mode === "turn" ? "per turn" : "per move";
  return `Clock: ${clock.seconds} s ${per}; ${bot}.`;
}

// The log entries of a server message: its events (with the game's texts) and the server's
// notes, each placed after the `at` events that came before it (at the end if it has no `at`).
export function logEntries(message) {
  const texts = message.event_texts ?? [];
  const entries = (message.events ?? []).map((event, i) => ({ event, text: texts[i] }));
  const notes = [...(message.notes ?? [])].map((note, i) => ({ note, i }));
  notes.sort((a, b) => (b.note.at ?? entries.length) - (a.note.at ?? entries.length) || b.i - a.i);
  for (const { note } of notes) {
    const entry = { event: { kind: "server-note", why: note.why }, text: note.text };
    entries.splice(Math.min(note.at ?? entries.length, entries.length), 0, entry);
  }
  return entries;
}

// The table page's clock box inside `root`; `send(message)` sends a JSON message to the server.
export function createClock(root, send) {
  if (!root) return { receive() {} };
  const box = { table: null, seat: null, offset: 0 };
  const countdowns = [];

  function secondsLeft(at) {
    return (Date.parse(at) - (Date.now() + box.offset)) / 1000;
  }

  function tick() {
    for (const { node, at } of countdowns) {
      const left = secondsLeft(at);
      node.textContent = formatLeft(left);
      node.classList.toggle("low", left < LOW_SECONDS);
    }
  }

  function who(seat) {
    return seat === box.seat ? `seat ${seat} (you)` : `seat ${seat}`;
  }

  function deadlineRows(table) {
    countdowns.length = 0;
    return table.deadlines.map(({ seat, at }) => {
      const node = el("strong", { class: "countdown", "data-seat": seat });
      countdowns.push({ node, at });
      return el("li", { class: "deadline", "data-seat": seat }, `${who(seat)}: `, node, " left");
    });
  }

  function standinRows(table) {
    return table.standins.map(({ seat, bot }) => {
      const mine = seat === box.seat;
      const reclaim = mine
        ? el("button", { type: "button", id: "reclaim", onclick: () => send({ type: "reclaim" }) },
          "Take back your seat")
        : "";
      return el("li", { class: "standin", "data-seat": seat },
        `${who(seat)} is played by a bot (${bot}) `, reclaim);
    });
  }

  function voteRows(table) {
    // Only players vote, and only about seats whose player is away (the server checks again).
    if (box.seat === null || table.away.includes(box.seat)) return [];
    const votes = new Map(table.votes.map((v) => [v.seat, v.by]));
    return table.away.filter((seat) => seat !== box.seat).map((seat) => {
      const by = votes.get(seat) ?? [];
      const voted = by.includes(box.seat);
      return el("li", { class: "away", "data-seat": seat }, `${who(seat)} is away `,
        el("button", {
          type: "button", class: "vote", "data-vote": seat, disabled: voted,
          onclick: () => send({ type: "vote_replace", seat }),
        }, voted ? "You voted for a bot" : "Let a bot play for them"),
        by.length ? ` (${by.length} vote${by.length > 1 ? "s" : ""})` : "");
    });
  }

  function render() {
    const table = box.table;
    const control = describeControl(table.clock);
    const rows = [...deadlineRows(table), ...standinRows(table), ...voteRows(table)];
    root.hidden = !control && !rows.length;
    root.replaceChildren(el("p", { class: "muted", text: control }), el("ul", {}, ...rows));
    tick();
  }

  setInterval(tick, 1000);
  return {
    // Whether the table plays under a clock (as far as the server has said yet).
    clocked() {
      return Boolean(box.table?.clock && box.table.clock.mode !== "none");
    },
    // A sync, update or table message: keep the table status the server sent, if any.
    receive(message) {
      if (message.seat !== undefined) box.seat = message.seat;
      if (!message.table) return;
      box.table = message.table;
      box.offset = Date.parse(message.table.now) - Date.now(); // the server's clock rules
      render();
    },
  };
}

// What happens when a player is away, in plain words (the lobby and the table page say it).
export function awayRule(clocked) {
  const clock = clocked
    ? "When a player's time runs out, the bot makes that move for them. "
    : "With no clock the game waits for a player who is away; nobody takes a seat whose player has not opened their link yet. ";
  return `${clock}If a player opens their link and then goes away, the players still at the table may vote `
    + "(a majority) to let the bot play that seat; opening the link again takes the seat back. "
    + "A player who leaves the table for good is replaced by the bot to the end.";
}

// The lobby form's time control: show the amount that fits the mode.
export function watchClockForm(get) {
  const mode = get("clock-mode");
  const show = () => {
    const turnBased = mode.value === "turn-based";
    get("clock-amount-row").hidden = mode.value === "none";
    get("clock-unit").textContent = turnBased ? "Hours per move" : "Seconds";
    get("clock-amount").value = turnBased ? 24 : 60;
    get("clock-amount").min = turnBased ? 0.1 : 5;
    const away = get("away-rule");
    if (away) away.textContent = awayRule(mode.value !== "none");
  };
  mode.addEventListener("change", show);
  show();
}

// The `clock` and `clock_bot` fields of a new table, from the lobby form.
export function clockChoice(get) {
  const mode = get("clock-mode").value;
  const amount = Number(get("clock-amount").value);
  const clock = mode === "none" ? { mode } : mode === "turn-based" ? { mode, hours: amount } : { mode, seconds: amount };
  return { clock, clock_bot: get("clock-bot").value };
}
