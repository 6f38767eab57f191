// The site's entry: picks the page from the path.
//   /              home          /join/CODE    join by invite link
//   /room/ID       a room (play, or watch)     /replay/GAME  replay of a game
import { describeError } from "./api/client.js";
import { homePage, joinPage } from "./pages/home.js";
import { replayPage } from "./pages/replay.js";
import { roomPage } from "./pages/room.js";
import { h } from "./ui/dom.js";
import { setRouter } from "./ui/nav.js";

const main = document.querySelector<HTMLElement>("#page")!;
let dispose: () => void = () => {};
let generation = 0;

async function route() {
  dispose();
  dispose = () => {};
  const mine = ++generation;
  const path = location.pathname;
  const m = path.match(/^\/(join|room|replay)\/([^/]+)\/?$/);
  try {
    let d: () => void;
    if (m?.[1] === "join") d = await joinPage(main, decodeURIComponent(m[2]));
    else if (m?.[1] === "room") d = await roomPage(main, decodeURIComponent(m[2]));
    else if (m?.[1] === "replay") d = await replayPage(main, decodeURIComponent(m[2]));
    else d = await homePage(main);
    if (mine === generation) dispose = d;
    else d();
  } catch (e) {
    if (mine !== generation) return;
    // Say what went wrong and what to do: try again (the server may be back), or go home.
    main.replaceChildren(
      h("p", { class: "msg error", "data-testid": "page-error", role: "alert" }, describeError(e)),
      h("div", { class: "buttons" },
        h("button", { class: "primary", "data-testid": "page-retry", onclick: () => void route() }, "Try again"),
        h("a", { href: "/", "data-link": true }, "Home")),
    );
  }
}

setRouter(() => void route());
void route();
