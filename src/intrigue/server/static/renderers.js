// Every game's board renderer, by game id: shared by the table page, the table screen and the
// replay page.
// A renderer overrides any part of the generic one (boardVerbs, status, prompt, board,
// private, players); `rendererFor` merges the two.
import { generic } from "./generic.js";
import { masqueradeMurder } from "./masquerade-murder.js";
import { masqueradeBall } from "./masquerade-ball.js";
import { projectAssassination } from "./project-assassination.js";
import { shadowsOverJapan } from "./shadows-over-japan.js";

export const RENDERERS = { "masquerade-murder": masqueradeMurder, "masquerade-ball": masqueradeBall,
  "shadows-over-japan": shadowsOverJapan, "project-assassination": projectAssassination };

export function rendererFor(gameId) {
  return { ...generic, ...(RENDERERS[gameId] ?? {}) };
}
