// Table talk: the table's public chat and private whispers between seats.
// Every text a player typed is shown with textContent, never parsed as HTML, so "<script>"
// in a message is just the characters "<script>". Chat is words only: it never plays a move.
import { el } from "./dom.js";

const MAX_CHARS = 500; // the server refuses longer lines

// Build the chat panel inside `root`. `send(message)` sends a JSON message to the server and
// returns false when there is no open connection. Returns handlers for the server's messages;
// a page without a chat panel (no `root`) gets handlers that do nothing.
export function createChat(root, send) {
  if (!root) return { sync() {}, receive() {} }; // a page without a chat panel
  const chat = { seat: null, players: 0, reveal: false, lines: new Map(), lastSent: "" };
  const list = el("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite" });
  const to = el("select", { id: "chat-to", "aria-label": "Send to" });
  const input = el("input", {
    id: "chat-input", type: "text", maxlength: MAX_CHARS, autocomplete: "off",
    placeholder: "Say something…", "aria-label": "Message",
  });
  const button = el("button", { type: "submit", id: "chat-send", text: "Send" });
  const form = el("form", { class: "chat-form", id: "chat-form", onsubmit: submit }, to, input, button);
  const error = el("p", { class: "error", id: "chat-error", role: "alert" });
  const note = el("p", { class: "muted chat-note", id: "chat-note" });
  root.replaceChildren(el("h2", { text: "Table talk" }), list, form, error, note);

  function who(seat) {
    return seat === chat.seat ? "you" : `seat ${seat}`;
  }

  function lineNode(line) {
    const whisper = line.to !== null;
    const header = whisper ? `${who(line.seat)} → ${who(line.to)} (whisper)` : who(line.seat);
    return el("li", {
      class: whisper ? "whisper" : null, "data-id": line.id, "data-seat": line.seat,
      "data-to": whisper ? line.to : null, title: `after move ${line.step}`,
    }, el("span", { class: "chat-who", text: `${header}: ` }),
    el("span", { class: "chat-text", text: line.text }));
  }

  function renderLines() {
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    // Ids are opaque: lines keep the order they came in, whispers revealed at the end go
    // where their time puts them (a stable sort by the time each was said).
    const lines = [...chat.lines.values()].sort((a, b) => (a.created > b.created) - (a.created < b.created));
    list.replaceChildren(...lines.map(lineNode));
    if (atBottom) list.scrollTop = list.scrollHeight;
  }

  function renderForm() {
    const talking = chat.seat !== null;
    form.hidden = !talking;
    const options = [el("option", { value: "", text: "Everyone" })];
    for (let seat = 0; seat < chat.players; seat++) {
      if (seat !== chat.seat) options.push(el("option", { value: seat, text: `Whisper to seat ${seat}` }));
    }
    const chosen = to.value;
    to.replaceChildren(...options);
    if ([...to.options].some((o) => o.value === chosen)) to.value = chosen;
    note.textContent = !talking
      ? "Spectators read the public chat; whispers stay between their two seats."
      : chat.reveal
        ? "Whispers are private now, but shown to everyone once the game is over."
        : "Whispers are seen by you and the seat you whisper to only. Promises bind nobody.";
  }

  function submit(event) {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const message = to.value === ""
      ? { type: "say", text }
      : { type: "whisper", to: Number(to.value), text };
    if (!send(message)) {
      error.textContent = "not connected; try again in a moment";
      return;
    }
    error.textContent = "";
    chat.lastSent = text;
    input.value = "";
  }

  return {
    // A (re)connection: every line this seat may read, and who can be whispered to.
    sync(message) {
      const info = message.chat ?? { lines: [], reveal: false, players: 0 };
      chat.seat = message.seat;
      chat.players = info.players;
      chat.reveal = info.reveal;
      chat.lines = new Map(info.lines.map((line) => [line.id, line]));
      renderForm();
      renderLines();
    },
    // A new line, the whispers revealed at the end of the game, or a refused chat message.
    receive(message) {
      if (message.type === "error") {
        error.textContent = message.message;
        if (!input.value) input.value = chat.lastSent; // give the refused text back
        return;
      }
      for (const line of message.lines) chat.lines.set(line.id, line);
      renderLines();
    },
  };
}
