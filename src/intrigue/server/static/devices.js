// Claim-once seat links and the devices on a seat (issue 18, item 4). A seat link (#token=...)
// is an invite: the first time this browser opens it, the page claims the seat and the server
// gives it a secret of its own, kept in localStorage; the address then says only #seat=N. The
// seat's owner sees every device the seat is open on and may sign the others out.
import { el } from "./dom.js";
import { claimSeat, savedSeats, setSeatNumber } from "./seats.js";

// The secret this page opens its seat with, and whether it claims the seat with it.
export function seatKey(tableId) {
  const params = new URLSearchParams(location.hash.slice(1));
  const invite = params.get("token");
  const seat = params.get("seat");
  const claimed = savedSeats().filter((s) => s.table === tableId && s.invite);
  if (invite) {
    const known = claimed.find((s) => s.invite === invite);
    if (known) return { token: known.token, claim: false };
    return { token: invite, claim: true, invite };
  }
  const known = seat === null ? null : claimed.find((s) => String(s.seat) === seat);
  return { token: known?.token ?? null, claim: false };
}

// The devices line in the page's header; `send(message)` sends on the WebSocket.
export function createDevices(after, key, tableId, send) {
  const list = el("span", { class: "sub", id: "devices", hidden: true });
  const button = el("button", { type: "button", id: "sign-out-others", hidden: true,
    text: "Sign the others out", onclick: () => send({ type: "sign_out_others" }) });
  after.after(list, button);

  function devicesText(devices) {
    const names = devices.map((d) => `${d.label}${d.you ? " (this one)" : ""}, since ${d.since}`);
    return `This seat is open on ${devices.length} devices: ${names.join("; ")}.`;
  }

  return {
    // A new secret for this browser (a claim, or the others signed out): keep it, not the link.
    receive(message) {
      if (message.type === "credential") {
        claimSeat({ table: tableId, invite: key.invite ?? key.token, token: message.token });
        key.token = message.token;
        key.claim = false;
        key.claimed = true;
        return;
      }
      const several = message.devices.length > 1;
      list.hidden = !several;
      button.hidden = !several;
      list.textContent = several ? devicesText(message.devices) : "";
    },
    // The seat is known: a claimed seat's address names it, never its secret.
    synced(seat) {
      if (!key.claimed || seat === null || seat === undefined) return;
      setSeatNumber(key.token, seat);
      history.replaceState(null, "", `${location.pathname}${location.search}#seat=${seat}`);
    },
  };
}
