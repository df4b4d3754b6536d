// The Rematch button of the table page. After the end any seat may ask for a rematch; the
// server answers every connected seat, privately, with the link to its own new seat
// ({type: "rematch", table, seat, token, url, jump}); the page then jumps there. A link that
// arrives on opening an old table (jump false) is offered instead, so the old game stays
// readable.
import { el } from "./dom.js";
import { rememberSeat } from "./seats.js";

export function createRematch(box, send) {
  let rematch = null; // the server's last rematch message

  function render(view) {
    box.hidden = !view?.is_over || (view.seat === null && !rematch);
    if (box.hidden) return;
    if (rematch) {
      const text = rematch.token ? "Your seat in the rematch is ready: play it" : "Watch the rematch";
      box.replaceChildren(el("a", { class: "button", id: "rematch-link", href: rematch.url, text }));
      return;
    }
    box.replaceChildren(
      el("button", { type: "button", id: "rematch-button", onclick: () => send({ type: "rematch" }) },
        "Rematch"),
      el("small", { class: "muted", text: " the same game and seats' kinds; seats and roles reshuffled" }),
    );
  }

  function receive(message, view) {
    rematch = message;
    if (message.token) rememberSeat({ table: message.table, token: message.token, opened: true });
    if (message.jump) location.assign(message.url);
    else render(view);
  }

  return { render, receive };
}
