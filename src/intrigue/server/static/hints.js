// Hints at a "First game" table: the server tells this seat, when it is to move, the move the
// medium bot would play for it ({type: "hint", step, action, text, reason}); this line shows it
// above the moves, with its button (and its square on a board that marks moves by their text)
// highlighted. "Show hints" switches them off and on for the seat ({type: "hints", on}). The
// hint comes from the seat's own view, on the server; nothing here guesses anything.
import { el } from "./dom.js";


// `box`: where the line and its checkbox go; `send(message)`: to the server.
export function createHints(box, send) {
  const state = { offered: false, on: true, hint: null };
  const check = el("input", { type: "checkbox", id: "show-hints", checked: true });
  const line = el("p", { class: "hint-line", id: "hint-line", "aria-live": "polite", hidden: true });
  check.addEventListener("change", () => {
    state.on = check.checked;
    send({ type: "hints", on: state.on });
    render();
  });
  box.replaceChildren(line, el("label", { class: "check hint-switch" }, check, " Show hints"));
  let last = { view: null, legal: [], pending: false };

  function current() {
    const { view, legal, pending } = last;
    const hint = state.hint;
    if (!state.on || !hint?.action || !view || view.is_over || pending) return null;
    if (hint.step !== view.step || !legal.some((a) => a.action === hint.action)) return null;
    return hint;
  }

  function render() {
    box.hidden = !state.offered || last.view?.seat === null || last.view?.seat === undefined;
    check.checked = state.on;
    const hint = current();
    line.hidden = !hint;
    document.querySelectorAll(".hinted").forEach((node) => node.classList.remove("hinted"));
    if (!hint) return;
    line.replaceChildren(el("strong", { text: "Hint: " }), hint.text,
      hint.reason ? el("span", { class: "hint-reason", text: ` — ${hint.reason}` }) : "");
    mark(hint.action);
  }

  return {
    receive(message) {
      if (message.type === "sync") {
        state.offered = Boolean(message.hints);
        state.on = message.hints?.on ?? true;
      } else if (message.type === "hints") {
        state.on = message.on;
      } else if (message.type === "hint") {
        state.hint = message;
      } else {
        return false;
      }
      render();
      return true;
    },
    // After every drawing of the page: the line, and the marks on what it drew anew.
    render(view, legal, pending) {
      last = { view, legal, pending };
      render();
    },
  };
}

// The hinted move's button, and what on the board plays it (a square whose data-actions name
// it); a button folded under "…or choose from a list" is unfolded so it can be seen.
function mark(action) {
  const quoted = CSS.escape(action);
  const nodes = [...document.querySelectorAll(`button[data-action="${quoted}"]`)];
  for (const node of document.querySelectorAll("[data-actions]")) {
    if (node.getAttribute("data-actions").split("|").includes(action)) nodes.push(node);
  }
  for (const node of nodes) {
    node.classList.add("hinted");
    const fold = node.closest("details.board-moves");
    if (fold) fold.open = true;
  }
}
