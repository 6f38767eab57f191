// Browser tests: real Chromium against real service processes, a real PostgreSQL and the
// dev gateway (see stack.mjs). Screenshots of every step go to the artifacts folder
// (TABLERO_WEB_ARTIFACTS, default <build>/web-artifacts). Run: node web/tests/run.mjs
import { after, before, test as nodeTest } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { startStack, GRACE_SECONDS } from "./stack.mjs";
import { launch, openPages, shootOnFailure, profile, shooter, moveCount, waitMoves, waitMyTurn, status, clickSomeMove, ARTIFACTS } from "./browser.mjs";

let stack;
let browser;

/** A scenario: on failure, screenshots of its open pages (FAILED-*.png), then its pages closed. */
function test(name, fn) {
  nodeTest(name, async (t) => {
    try {
      await fn(t);
    } catch (e) {
      await shootOnFailure(name.split(/[:;]/)[0].replace(/\W+/g, "-"));
      throw e;
    } finally {
      for (const p of [...openPages]) await p.context().close().catch(() => {});
    }
  });
}

// Free ports are found by binding and releasing them, so another process on the machine
// may take one first: a failed start is told and tried once more on fresh ports.
async function twice(what, f) {
  try {
    return await f();
  } catch (e) {
    console.log(`# ${what} failed, trying once more: ${String(e.message ?? e).split("\n").slice(0, 20).join("\n# ")}`);
    return f();
  }
}

before(async () => {
  stack = await twice("starting the services", startStack);
  browser = await twice("launching Chromium", launch);
  console.log(`# site ${stack.base}, screenshots in ${ARTIFACTS}, service logs in ${stack.logs}`);
});

after(async () => {
  await browser?.close();
  await stack?.stop();
});

async function newGame(page, kind, { level = "1", seats } = {}) {
  await page.goto("/");
  await page.selectOption('[data-testid="game-kind"]', kind);
  await page.selectOption('[data-testid="cpu-level"]', level);
  if (seats) await page.selectOption('[data-testid="seat-count"]', String(seats));
  await page.click('[data-testid="play-cpu"]');
  await page.waitForURL(/\/room\//);
  await page.waitForSelector('[data-testid="board"]');
}

/** Creates a room of `kind` and turns legal-move highlights off; returns the settings version before. */
async function roomWithoutHighlights(page, kind) {
  await page.goto("/");
  await page.selectOption('[data-testid="game-kind"]', kind);
  await page.click('[data-testid="create-room"]');
  const v0 = Number(await page.locator('[data-testid="settings"]').getAttribute("data-version"));
  await page.uncheck('[data-testid="setting-legal"]');
  await page.waitForSelector(`[data-testid="settings"][data-version="${v0 + 1}"]`);
  return v0;
}

/** Pieces on the board as "square:piece:owner", sorted (replay vs live comparisons). */
const piecesOf = (page) => page.locator("[data-square] [data-piece], [data-hole] .marble").evaluateAll((els) =>
  els.map((e) => `${e.closest("[data-square],[data-hole]").getAttribute(e.closest("[data-square]") ? "data-square" : "data-hole")}:${e.dataset.piece ?? ""}:${e.dataset.owner ?? ""}`).sort());

/** Opens the replay of the game on the page; checks its first position is `start`, steps forward. */
async function checkReplay(page, start, shot) {
  const id = await page.locator('[data-testid="game"]').getAttribute("data-game-id");
  await page.goto(`/replay/${id}`);
  await page.waitForSelector('[data-testid="replay-ply"]');
  const total = await page.locator('[data-testid="move"]').count();
  assert.ok(total > 0);
  await page.click('[data-testid="replay-first"]');
  assert.deepEqual(await piecesOf(page), start, "the replay starts from the game's first position");
  await page.click('[data-testid="replay-next"]');
  assert.match(await page.locator('[data-testid="replay-ply"]').textContent(), new RegExp(`^Move 1 of ${total}`));
  assert.notDeepEqual(await piecesOf(page), start);
  await shot(page, "replay");
}

/** What the page told the player (every message is also logged), matching `re`. */
const said = (page, re) => page.log.filter((l) => / tablero: /.test(l) && re.test(l));

const noErrors = (page) => assert.deepEqual(page.errors, [], "no uncaught errors in the page");

test("chess against the CPU by clicks until a result", async () => {
  const { context, page } = await profile(browser, stack.base);
  const shot = shooter("chess-cpu");
  await newGame(page, "chess");
  await shot(page, "start");
  assert.equal(await page.locator("[data-square]").count(), 64);
  assert.equal(await page.locator('[data-square="e2"] [data-piece="wP"]').count(), 1);
  // The first move by keyboard: the squares are buttons named by what stands on them,
  // Enter acts, and the focus stays on its square through the board's redraws.
  assert.ok(await waitMyTurn(page));
  // Before the first move the move list is not an empty white bar: a quiet "No moves yet".
  assert.equal(await page.locator('[data-testid="move-list"]').evaluateAll((els) => els.filter((e) => e.offsetHeight > 0).length), 0, "no empty move list drawn");
  assert.ok(await page.getByText("No moves yet", { exact: true }).isVisible(), '"No moves yet" shown');
  await page.getByRole("button", { name: "e2, white pawn", exact: true }).focus();
  await page.keyboard.press("Enter");
  await page.waitForSelector('[data-square="e2"].selected');
  await page.getByRole("button", { name: "e4", exact: true }).focus();
  await page.keyboard.press("Enter");
  await waitMoves(page, 2);
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("data-square")), "e4");
  await shot(page, "move-1");
  for (let i = 1; i < 3; i++) {
    assert.ok(await waitMyTurn(page));
    await clickSomeMove(page, '[data-piece^="w"]', "data-square");
    await waitMoves(page, 2 * i + 2); // ours and the CPU's answer
    await shot(page, `move-${i + 1}`);
  }
  // Chess moves are numbered as players write them: "1. e4 e5", not one number a ply.
  assert.deepEqual(await page.locator('[data-testid="move-list"] li').evaluateAll((els) => els.map((e) => e.querySelector(".num")?.textContent ?? "?")),
    ["1.", "", "2.", "", "3.", ""]);
  assert.ok(await waitMyTurn(page));
  await page.click('[data-testid="resign"]');
  await page.waitForSelector('[data-testid="result"]');
  // The status says the game is over and the result line how: each once, not the same words twice.
  assert.equal(await status(page), "Game over");
  assert.equal(await page.locator('[data-testid="result"]').textContent(), "You lost (resignation)");
  // Nor does a notice "White resigned" cover the result for 5 s, saying it again (to the
  // player who resigned, too). The room's stream brings the resignation after the answer.
  await page.waitForTimeout(1000);
  assert.deepEqual(said(page, /resigned/), [], "no notice repeats the result line");
  await shot(page, "result");
  // The PGN button and the Replay link do not touch: a gap between them as between the page's other buttons.
  const [pgnBox, replayBox] = await Promise.all(['[data-testid="pgn-download"]', '[data-testid="replay-link"]'].map((s) => page.locator(s).boundingBox()));
  const gap = replayBox.x - (pgnBox.x + pgnBox.width);
  assert.ok(gap >= 4, `PGN and Replay ${gap.toFixed(1)} px apart`);
  // PGN download of the finished game.
  const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-testid="pgn-download"]')]);
  const pgn = readFileSync(await download.path(), "utf8");
  assert.match(pgn, /\[Result "0-1"\]/);
  // Replay: the moves, stepping back to the start position.
  await page.click('[data-testid="replay-link"]');
  await page.waitForSelector('[data-testid="replay-ply"]');
  assert.equal(await page.locator('[data-testid="move"]').count(), 6);
  // The step buttons are arrows: a screen reader needs their names.
  for (const name of ["First position", "Previous move", "Next move", "Last move"]) {
    assert.equal(await page.getByRole("button", { name, exact: true }).count(), 1, `a button named "${name}"`);
  }
  await page.getByRole("button", { name: "First position" }).click();
  assert.equal(await page.locator('[data-square="e2"] [data-piece="wP"]').count(), 1);
  assert.match(await page.locator('[data-testid="replay-ply"]').textContent(), /Move 0 of 6/);
  await shot(page, "replay");
  noErrors(page);
  await context.close();
});

test("invite link: the friend joins from another profile and sees the host's move; spectator, draw offer, rematch", async () => {
  const host = await profile(browser, stack.base);
  const friend = await profile(browser, stack.base, { phone: true });
  const shot = shooter("invite");
  await host.page.goto("/");
  await host.page.selectOption('[data-testid="game-kind"]', "chess");
  await host.page.click('[data-testid="create-room"]');
  const link = host.page.locator('[data-testid="invite-link"]');
  await link.waitFor();
  const href = await link.getAttribute("href");
  assert.match(href, /\/join\/[A-Z2-9]{8}$/);
  await shot(host.page, "host-room");
  // The friend's browser has no clipboard (a site on plain http): Copy selects the link
  // and says to copy it by hand, rather than doing nothing.
  await friend.context.addInitScript(() => Object.defineProperty(Navigator.prototype, "clipboard", { get: () => undefined }));
  await friend.page.goto(href);
  await friend.page.waitForURL(/\/room\//);
  await host.page.waitForFunction(() => document.querySelectorAll('[data-testid="member"]').length === 2);
  await friend.page.click('button:has-text("Copy")');
  await friend.page.waitForSelector('[data-testid="notice"]:has-text("copy it by hand")');
  assert.equal(await friend.page.evaluate(() => getSelection().toString()), href);
  await shot(friend.page, "friend-joined");
  // On a 360x640 phone the invite code is never broken across two lines (the link may
  // wrap before it: the code then moves to the next line whole).
  await friend.page.setViewportSize({ width: 360, height: 640 });
  const codeLines = await friend.page.locator('[data-testid="invite-link"]').evaluate((a) => {
    const code = a.getAttribute("href").split("/").pop();
    const range = document.createRange();
    const texts = document.createTreeWalker(a, NodeFilter.SHOW_TEXT);
    for (let t = texts.nextNode(); t; t = texts.nextNode()) {
      const i = t.data.indexOf(code);
      if (i >= 0) {
        range.setStart(t, i);
        range.setEnd(t, i + code.length);
        break;
      }
    }
    return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
  });
  assert.equal(codeLines, 1, "the invite code on one line");
  await shot(friend.page, "invite-small-phone");
  // The settings keep to one line each on that phone: the chess options are named shortly,
  // their long explanation a smaller hint below (the control's description), not the label.
  const wrapped = await friend.page.locator('[data-testid="settings"] label > :not(select, input)').evaluateAll((els) => els
    .filter((e) => e.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(e).lineHeight)).map((e) => e.textContent));
  assert.deepEqual(wrapped, [], "every setting's label on one line");
  assert.equal(await friend.page.getByRole("combobox", { name: "Draw mode", exact: true }).count(), 1, 'a setting named "Draw mode"');
  const hint = friend.page.getByText(/^site: threefold repetition/);
  assert.ok(await hint.isVisible(), "the draw mode's explanation is shown");
  const fontPx = (l) => l.evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  assert.ok((await fontPx(hint)) < (await fontPx(friend.page.getByText("Draw mode", { exact: true }))), "the explanation in smaller type than the label");
  assert.equal(await friend.page.getByRole("combobox", { name: "Draw mode" }).evaluate((c) => document.getElementById(c.getAttribute("aria-describedby") ?? "")?.textContent),
    await hint.textContent(), "the explanation describes the control");
  await shot(friend.page, "settings-small-phone");
  await friend.page.setViewportSize({ width: 390, height: 844 });
  await host.page.click('[data-testid="start-game"]');
  await host.page.waitForSelector('[data-square="e2"]');
  await friend.page.waitForSelector('[data-square="e2"]');
  // The friend plays Black: the board is turned (a8 in the bottom-right corner's rank).
  assert.match(await status(friend.page), /White.*to move/);
  // The board is drawn before the page knows whose turn it is; a click before that is
  // not a move.
  assert.ok(await waitMyTurn(host.page));
  await host.page.click('[data-square="e2"]');
  await host.page.click('[data-square="e4"]');
  await friend.page.waitForSelector('[data-square="e4"] [data-piece="wP"]');
  await waitMoves(friend.page, 1);
  assert.equal(await friend.page.locator('[data-testid="move"]').first().textContent(), "e4");
  assert.ok(await waitMyTurn(friend.page));
  await shot(friend.page, "friend-sees-e4");
  await friend.page.click('[data-square="e7"]');
  await friend.page.click('[data-square="e5"]');
  await host.page.waitForSelector('[data-square="e5"] [data-piece="bP"]');
  await shot(host.page, "host-sees-e5");
  // A stranger with the room's address watches live.
  const watcher = await profile(browser, stack.base);
  await watcher.page.goto(friend.page.url());
  await watcher.page.waitForSelector('[data-testid="spectating"]');
  await waitMoves(watcher.page, 2);
  assert.equal(await watcher.page.locator('[data-testid="move-input"]').count(), 0, "a spectator cannot move");
  // Draw offer: declined, then offered again and accepted.
  await host.page.click('[data-testid="offer-draw"]');
  await friend.page.click('[data-testid="draw-decline"]');
  await host.page.waitForSelector('[data-testid="notice"]:has-text("declined")');
  await host.page.waitForSelector('[data-testid="offer-draw"]');
  await host.page.click('[data-testid="offer-draw"]');
  await friend.page.waitForSelector('[data-testid="draw-accept"]');
  await friend.page.waitForSelector('[data-testid="notice"]:has-text("offers a draw")');
  await shot(friend.page, "draw-offered");
  await friend.page.click('[data-testid="draw-accept"]');
  for (const p of [host.page, friend.page, watcher.page]) {
    await p.waitForSelector('[data-testid="result"]');
    assert.match(await p.locator('[data-testid="result"]').textContent(), /Draw \(draw agreed\)/);
    // The offer is answered: its notice goes with it (it stayed its 5 s over the result).
    assert.equal(await p.locator('[data-testid="notice"]:has-text("offers a draw")').count(), 0, "no draw offer notice after the game ended");
  }
  await shot(watcher.page, "spectator-sees-draw");
  // The finished game stays where it was on the friend's phone (the next game's settings
  // come below it), with what happens next.
  await friend.page.waitForSelector('[data-testid="settings"]');
  const result = await friend.page.locator('[data-testid="result"]').boundingBox();
  assert.ok(result && result.y >= 0 && result.y + result.height <= 844, `the result is on the phone's screen (${JSON.stringify(result)})`);
  await friend.page.waitForSelector('[data-testid="next-game"]:has-text("Waiting for the host to start a rematch")');
  await shot(friend.page, "friend-sees-draw");
  // Rematch: colours swap, the friend now plays White and moves first.
  await host.page.click('[data-testid="rematch"]');
  await friend.page.waitForFunction(() => document.querySelectorAll('[data-testid="move"]').length === 0);
  assert.ok(await waitMyTurn(friend.page));
  assert.match(await friend.page.locator('[data-testid="seat"][data-seat="0"]').textContent(), /\(you\)/);
  await shot(friend.page, "rematch-friend-white");
  for (const p of [host.page, friend.page, watcher.page]) noErrors(p);
  await watcher.context.close();
  await host.context.close();
  await friend.context.close();
});

test("four-player shogi with three CPUs progresses (on a phone-sized screen)", async () => {
  const { context, page } = await profile(browser, stack.base, { phone: true });
  const shot = shooter("shogi4");
  await newGame(page, "shogi4");
  assert.equal(await page.locator("[data-square]").count(), 81);
  assert.equal(await page.locator('[data-testid="hand"]').count(), 4);
  assert.equal(await page.locator('[data-square="5i"] [data-piece="K"][data-owner="0"]').count(), 1);
  const start = await piecesOf(page);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `the page fits the phone's width (${width}px)`);
  // On a smaller phone (360x640) the whole board and whose turn it is show without scrolling.
  await page.setViewportSize({ width: 360, height: 640 });
  await page.waitForSelector('[data-testid="status"]');
  for (const what of ['[data-testid="board"]', '[data-testid="status"]']) {
    const box = await page.locator(what).boundingBox();
    assert.ok(box && box.y + box.height <= 640 && box.x + box.width <= 360, `${what} on a 360x640 screen (${JSON.stringify(box)})`);
  }
  await shot(page, "small-phone");
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, "start");
  // Turns go round, except that a seat in check moves next (check priority): wait for our
  // turn, move, and see at least one CPU answer.
  for (let i = 0; i < 3; i++) {
    if (!(await waitMyTurn(page, 60000))) break;
    const n = await moveCount(page);
    await clickSomeMove(page, '[data-owner="0"][data-piece="P"], [data-owner="0"][data-piece="S"], [data-owner="0"][data-piece]', "data-square");
    await waitMoves(page, n + 2, 60000);
    await shot(page, `round-${i + 1}`);
  }
  await waitMyTurn(page, 60000);
  const seats = await page.locator('[data-testid="move"]').evaluateAll((els) => [...new Set(els.map((e) => e.dataset.seat))].sort());
  assert.deepEqual(seats, ["0", "1", "2", "3"]);
  await checkReplay(page, start, shot);
  noErrors(page);
  await context.close();
});

test("six-player Chinese Checkers with CPUs", async () => {
  const { context, page } = await profile(browser, stack.base);
  const shot = shooter("checkers6");
  await newGame(page, "checkers", { seats: 6 });
  assert.equal(await page.locator("[data-hole]").count(), 121);
  assert.equal(await page.locator('[data-testid="seat"]').count(), 6);
  assert.equal(await page.locator(".marble").count(), 60);
  const start = await piecesOf(page);
  await shot(page, "start");
  for (let i = 0; i < 2; i++) {
    if (!(await waitMyTurn(page, 60000))) break;
    const n = await moveCount(page);
    await clickSomeMove(page, '.marble[data-owner="0"]', "data-hole");
    await waitMoves(page, n + 2, 60000);
    await shot(page, `round-${i + 1}`);
  }
  await waitMyTurn(page, 60000);
  const seats = await page.locator('[data-testid="move"]').evaluateAll((els) => new Set(els.map((e) => e.dataset.seat)).size);
  assert.equal(seats, 6);
  await checkReplay(page, start, shot);
  noErrors(page);
  await context.close();
});

test("reload reclaims the seat; an absent player's seat is shown as played by the CPU", async () => {
  const host = await profile(browser, stack.base);
  const friend = await profile(browser, stack.base);
  const shot = shooter("reload");
  await host.page.goto("/");
  await host.page.selectOption('[data-testid="game-kind"]', "chess");
  await host.page.click('[data-testid="create-room"]');
  const href = await host.page.locator('[data-testid="invite-link"]').getAttribute("href");
  await friend.page.goto(href);
  await friend.page.waitForURL(/\/room\//);
  const room = friend.page.url();
  await host.page.waitForFunction(() => document.querySelectorAll('[data-testid="member"]').length === 2);
  await host.page.click('[data-testid="start-game"]');
  await host.page.waitForSelector('[data-square="e2"]');
  assert.ok(await waitMyTurn(host.page));
  await host.page.click('[data-square="e2"]');
  await host.page.click('[data-square="e4"]');
  await friend.page.waitForSelector('[data-square="e4"] [data-piece="wP"]');
  assert.ok(await waitMyTurn(friend.page));
  await friend.page.click('[data-square="e7"]');
  await friend.page.click('[data-square="e5"]');
  await waitMoves(host.page, 2);
  // Reload: same seat, the same two moves (the stream resumed, nothing twice), play on.
  await host.page.reload();
  await host.page.waitForSelector('[data-testid="board"]');
  await waitMoves(host.page, 2);
  assert.match(await host.page.locator('[data-testid="seat"][data-seat="0"]').textContent(), /\(you\)/);
  assert.ok(await waitMyTurn(host.page));
  await shot(host.page, "after-reload");
  await host.page.click('[data-square="g1"]');
  await host.page.click('[data-square="f3"]');
  await waitMoves(friend.page, 3);
  // The host's own move reaches it through its stream too: wait for it, then count.
  await waitMoves(host.page, 3);
  assert.equal(await moveCount(host.page), 3, "no move shown twice after resuming the stream");
  // The friend goes away: past the grace period the CPU plays Black, and the host sees it.
  await friend.page.goto("about:blank");
  await host.page.waitForSelector('[data-testid="seat"][data-seat="1"] [data-testid="cpu-takeover"]', { timeout: (GRACE_SECONDS + 15) * 1000 });
  await waitMoves(host.page, 4);
  await shot(host.page, "cpu-plays-absent-friend");
  // The friend comes back (same profile: same guest): the seat is theirs again at once.
  await friend.page.goto(room);
  await friend.page.waitForSelector('[data-testid="board"]');
  await host.page.waitForSelector('[data-testid="seat"][data-seat="1"] [data-testid="cpu-takeover"]', { state: "detached", timeout: 15000 });
  assert.match(await friend.page.locator('[data-testid="seat"][data-seat="1"]').textContent(), /\(you\)/);
  await shot(friend.page, "friend-back");
  noErrors(host.page);
  noErrors(friend.page);
  await host.context.close();
  await friend.context.close();
});

test("turn timer counts down; a refused draw claim; legal-move highlights absent when the room turns them off; a refused move is a message", async () => {
  const { context, page } = await profile(browser, stack.base);
  const shot = shooter("no-highlights");
  await page.goto("/");
  // The CPU level pickers show chess levels with their approximate rating from the catalogue
  // ("3 (~1234)"), other games' levels without one.
  const levelText = (id) => (want) => page.waitForFunction(([sel, re]) =>
    new RegExp(re).test([...(document.querySelector(sel)?.options ?? [])].find((o) => o.value === "3")?.textContent ?? ""), [id, want]);
  const homeLevel = levelText('[data-testid="cpu-level"]');
  await page.selectOption('[data-testid="game-kind"]', "chess");
  await homeLevel("^3 \\(~\\d{3,4}\\)$");
  await page.selectOption('[data-testid="game-kind"]', "checkers");
  await homeLevel("^3$");
  await page.selectOption('[data-testid="game-kind"]', "chess");
  await homeLevel("^3 \\(~\\d{3,4}\\)$");
  await page.click('[data-testid="create-room"]');
  await page.waitForSelector('[data-testid="setting-legal"]');
  await levelText('[data-testid="setting-cpu"]')("^3 \\(~\\d{3,4}\\)$");
  assert.ok(await page.isChecked('[data-testid="setting-legal"]'));
  // Each change is saved (the panel is redrawn with the next settings version).
  const version = () => page.locator('[data-testid="settings"]').getAttribute("data-version").then(Number);
  const v0 = await version();
  // A change the server never got is not shown as made.
  await page.route(/UpdateRoomSettings$/, (r) => r.abort());
  // A click, not uncheck(): the box going back to checked is the point, not a failed click.
  await page.click('[data-testid="setting-legal"]');
  await page.waitForSelector('[data-testid="error"]:has-text("Settings: Cannot reach the server")');
  await page.waitForFunction(() => document.querySelector('[data-testid="setting-legal"]').checked);
  await page.unroute(/UpdateRoomSettings$/);
  await page.uncheck('[data-testid="setting-legal"]');
  await page.waitForSelector(`[data-testid="settings"][data-version="${v0 + 1}"]`);
  await page.selectOption('[data-testid="setting-turn"]', "30");
  await page.waitForSelector(`[data-testid="settings"][data-version="${v0 + 2}"]`);
  await page.selectOption('[data-testid="option-draw_mode"]', "fide");
  await page.waitForSelector(`[data-testid="settings"][data-version="${v0 + 3}"]`);
  assert.equal(await page.isChecked('[data-testid="setting-legal"]'), false);
  assert.equal(await page.inputValue('[data-testid="setting-turn"]'), "30");
  await page.click('[data-testid="start-game"]');
  await page.waitForSelector('[data-square="e2"]');
  assert.ok(await waitMyTurn(page));
  // The turn timer counts down from 30 s.
  const seconds = async () => Number((await page.locator('[data-testid="turn-timer"]').textContent()).replace(/\D/g, ""));
  await page.waitForFunction(() => /\d+ s/.test(document.querySelector('[data-testid="turn-timer"]').textContent));
  const t0 = await seconds();
  assert.ok(t0 > 0 && t0 <= 30, `timer ${t0}`);
  await page.waitForTimeout(2100);
  assert.ok((await seconds()) < t0, "the timer counts down");
  await page.click('[data-square="e2"]');
  await page.waitForSelector('[data-square="e2"].selected');
  await page.waitForTimeout(500);
  assert.equal(await page.locator(".legal").count(), 0, "no highlighted squares");
  await shot(page, "selected-no-highlights");
  // An illegal target: the server refuses, the page says so and keeps working.
  await page.click('[data-square="e5"]');
  // (The settings error above may still be shown: wait for this one.)
  await page.waitForSelector('[data-testid="error"]:has-text("e2e5 refused")');
  await shot(page, "refused-by-click");
  // A typed move that is refused, then a typed move that is played.
  await page.fill('[data-testid="move-input"]', "Ke3");
  await page.click('[data-testid="move-submit"]');
  await page.waitForFunction(() => /Ke3 refused/.test(document.querySelector('[data-testid="error"]')?.textContent ?? ""));
  await shot(page, "refused-typed");
  assert.equal(await moveCount(page), 0);
  await page.fill('[data-testid="move-input"]', "Nf3");
  await page.click('[data-testid="move-submit"]');
  await waitMoves(page, 1);
  assert.equal(await page.locator('[data-square="f3"] [data-piece="wN"]').count(), 1);
  await shot(page, "typed-move-played");
  // FIDE draw mode: a claim can be made on one's turn; with no repetition it is refused.
  await waitMoves(page, 2);
  assert.ok(await waitMyTurn(page));
  await page.click('[data-testid="claim-draw"]');
  await page.waitForFunction(() => /Draw claim/.test(document.querySelector('[data-testid="error"]')?.textContent ?? ""));
  await shot(page, "claim-refused");
  assert.match(await status(page), /Your turn/);
  // Nobody moves: at the end of the 30 s the CPU plays for us, and the page says why.
  await page.waitForSelector('[data-testid="notice"]:has-text("Your time ran out: the CPU played")', { timeout: 45000 });
  await waitMoves(page, 3);
  await shot(page, "time-ran-out");
  noErrors(page);
  await context.close();
});

test("quick match: two players are paired; the ranked result shows the rating change, home the new rating", async () => {
  const a = await profile(browser, stack.base);
  const b = await profile(browser, stack.base, { phone: true });
  const shot = shooter("quick-match");
  const tag = String(Date.now() % 100000);
  const queue = async (p, alone = true) => {
    await p.selectOption('[data-testid="game-kind"]', "chess");
    await p.click('[data-testid="quick-match"]');
    if (alone) await p.waitForSelector('[data-testid="cancel-queue"]');
  };
  const named = async (p, name) => {
    await p.goto("/");
    await p.fill('[data-testid="name-input"]', name);
    await p.click('form:has([data-testid="name-input"]) button');
    await p.waitForSelector(`[data-testid="notice"]:has-text("${name}")`);
  };
  await named(a.page, `Ana${tag}`);
  // Ana starts looking, then goes elsewhere: she leaves the queue (else Ben would be
  // paired with her absent self, a game the CPU plays for her).
  await queue(a.page);
  await a.page.click('[data-testid="create-room"]');
  await a.page.waitForSelector('[data-testid="notice"]:has-text("Quick match cancelled")');
  await a.page.goto("/");
  await named(b.page, `Ben${tag}`);
  await queue(b.page);
  await queue(a.page, false);
  await shot(a.page, "waiting");
  await a.page.waitForURL(/\/room\//, { timeout: 30000 });
  await b.page.waitForURL(/\/room\//, { timeout: 30000 });
  await a.page.waitForSelector('[data-square="e2"]');
  await b.page.waitForSelector('[data-square="e2"]');
  assert.equal(a.page.url(), b.page.url(), "both in the same room");
  await a.page.click('[data-testid="resign"]');
  for (const p of [a.page, b.page]) {
    await p.waitForSelector('[data-testid="rating-change"]', { timeout: 20000 });
    assert.match(await p.locator('[data-testid="rating-change"]').textContent(), /^Rating \d+ → \d+ \([+-]?\d+\)$/);
  }
  assert.match(await a.page.locator('[data-testid="result"]').textContent(), /You lost \(resignation\)/);
  assert.match(await b.page.locator('[data-testid="result"]').textContent(), /You won \(resignation\)/);
  assert.match(await b.page.locator('[data-testid="rating-change"]').textContent(), /\(\+\d+\)/);
  for (const p of [a.page, b.page]) assert.deepEqual(said(p, /resigned/), [], "no notice repeats the result line");
  await shot(b.page, "rated-result");
  // Home: the new rating, and the leaderboard answered (it lists settled ratings only).
  await b.page.goto("/");
  const mine = b.page.locator('[data-testid="my-rating"]');
  await mine.waitFor();
  assert.match(await mine.textContent(), /^Chess: (\d+) ±\d+ \(1 game, provisional\)$/);
  assert.ok(Number((await mine.textContent()).match(/^Chess: (\d+)/)[1]) > 1500, "the winner gained");
  await b.page.waitForFunction(() => /Nobody here yet|#/.test(document.querySelector('[data-testid="leaderboard"]').textContent));
  assert.equal(await b.page.getByLabel("Leaderboard for").count(), 1, "the leaderboard's game picker has a label");
  // "Your games" says how the game went for the player, not only how it ended.
  await b.page.waitForSelector('[data-testid="my-games"] a');
  assert.match(await b.page.locator('[data-testid="my-games"] a').first().textContent(), /^Chess · (Ana|Ben)\d+ vs (Ana|Ben)\d+ · You won \(resignation\)$/);
  await shot(b.page, "home-ratings");
  noErrors(a.page);
  noErrors(b.page);
  await a.context.close();
  await b.context.close();
});

test("Chinese Checkers jump entered hole by hole without highlights", async () => {
  const { context, page } = await profile(browser, stack.base);
  const shot = shooter("checkers-chain");
  const v0 = await roomWithoutHighlights(page, "checkers");
  // Who moves first is offered by the seats' names, not "seat 0".
  assert.deepEqual(await page.locator('[data-testid="setting-first"] option').allTextContents(), ["Red", "Blue", "Yellow", "Green", "Purple", "Black"]);
  await page.selectOption('[data-testid="setting-seats"]', "3");
  await page.waitForSelector(`[data-testid="settings"][data-version="${v0 + 2}"]`);
  await page.click('[data-testid="start-game"]');
  await page.waitForSelector('[data-hole="c1"] .marble');
  assert.equal(await page.locator('[data-testid="seat"]').count(), 3);
  assert.ok(await waitMyTurn(page));
  // c1 over d1 to e5: a jump, so the client waits for more holes or the end of the chain.
  await page.click('[data-hole="c1"]');
  await page.click('[data-hole="e5"]');
  await page.waitForSelector('[data-testid="submit-path"]:has-text("c1-e5")');
  assert.equal(await page.locator(".legal").count(), 0);
  await shot(page, "chain-entered");
  await page.click('[data-hole="e5"]'); // the last hole again ends the chain
  await waitMoves(page, 1);
  assert.equal(await page.locator('[data-testid="move"]').first().textContent(), "c1-e5");
  assert.equal(await page.locator('[data-hole="e5"] .marble[data-owner="0"]').count(), 1);
  await shot(page, "chain-played");
  noErrors(page);
  await context.close();
});

test("four-player shogi seen from West: the board and hands turn with the seat", async () => {
  const host = await profile(browser, stack.base);
  const friend = await profile(browser, stack.base);
  const shot = shooter("shogi4-west");
  await host.page.goto("/");
  await host.page.selectOption('[data-testid="game-kind"]', "shogi4");
  await host.page.click('[data-testid="create-room"]');
  const href = await host.page.locator('[data-testid="invite-link"]').getAttribute("href");
  await friend.page.goto(href);
  await host.page.waitForFunction(() => document.querySelectorAll('[data-testid="member"]').length === 2);
  await host.page.click('[data-testid="start-game"]');
  await friend.page.waitForSelector('[data-square="5i"]');
  assert.match(await friend.page.locator('[data-testid="seat"][data-seat="1"]').textContent(), /\(you\) · West/);
  // Seat 0's north-west corner 9a is West's bottom-left; 1i (South's right corner) West's top-right.
  const box = async (sq) => friend.page.locator(`[data-square="${sq}"]`).boundingBox();
  // A box is null while the board is being (re)drawn by the first events: ask again.
  const boxes = async () => [await box("9a"), await box("1i"), await friend.page.locator(".board.shogi").boundingBox()];
  let [nw, se, board] = await boxes();
  for (let i = 0; i < 100 && !(nw && se && board); ++i) {
    await friend.page.waitForTimeout(100);
    [nw, se, board] = await boxes();
  }
  assert.ok(nw && se && board, "the board is laid out");
  assert.ok(nw.x - board.x < nw.width && board.y + board.height - (nw.y + nw.height) < nw.height, "9a bottom-left");
  assert.ok(board.x + board.width - (se.x + se.width) < se.width && se.y - board.y < se.height, "1i top-right");
  assert.equal(await friend.page.locator('[data-testid="hand"].bottom').getAttribute("data-seat"), "1");
  // Host moves (South first); West then moves by clicks.
  await host.page.click('[data-square="5g"]');
  await host.page.click('[data-square="5f"]');
  assert.ok(await waitMyTurn(friend.page));
  await clickSomeMove(friend.page, '[data-owner="1"][data-piece="P"]', "data-square");
  await waitMoves(host.page, 2);
  await shot(friend.page, "west-moved");
  noErrors(host.page);
  noErrors(friend.page);
  await host.context.close();
  await friend.context.close();
});

test("the server out of reach: the page says so and offers to try again; a move not sent is not 'refused'; a lost stream shows at the top", async () => {
  const { context, page } = await profile(browser, stack.base, { phone: true });
  const shot = shooter("unreachable");
  const api = /\/tablero\.v1\./;
  // Nothing answers: the first page says what is wrong and what to do (not "Failed to fetch").
  await page.route(api, (r) => r.abort());
  await page.goto("/");
  await page.waitForSelector('[data-testid="page-error"]');
  assert.match(await page.locator('[data-testid="page-error"]').textContent(), /^Cannot reach the server: check your connection, then try again\.$/);
  await shot(page, "home-unreachable");
  await page.unroute(api);
  await page.click('[data-testid="page-retry"]');
  await page.waitForSelector('[data-testid="play-cpu"]');
  // A move the server never got.
  await newGame(page, "chess");
  assert.ok(await waitMyTurn(page));
  await page.route(/MakeMove$/, (r) => r.abort());
  await page.click('[data-square="e2"]');
  await page.waitForSelector('[data-square="e2"].selected');
  await page.click('[data-square="e4"]');
  await page.waitForSelector('[data-testid="error"]');
  assert.match(await page.locator('[data-testid="error"]').textContent(), /^Move e2e4 not sent\. Cannot reach the server/);
  await shot(page, "move-not-sent");
  await page.unroute(/MakeMove$/);
  // The room's stream cannot be had: the banner is at the top of the phone's screen.
  await page.route(/WatchBatches$/, (r) => r.fulfill({ status: 503, body: "" }));
  await page.reload();
  const banner = page.locator('[data-testid="connection"]');
  await page.waitForSelector('[data-testid="connection"]:has-text("Connection lost")');
  const box = await banner.boundingBox();
  assert.ok(box && box.y >= 0 && box.y + box.height <= 844, `the banner is on screen (${JSON.stringify(box)})`);
  await shot(page, "stream-lost");
  await page.unroute(/WatchBatches$/);
  await page.waitForFunction(() => document.querySelector('[data-testid="connection"]').textContent === "", null, { timeout: 20000 });
  await page.click('[data-square="e2"]');
  await page.click('[data-square="e4"]');
  await waitMoves(page, 1);
  noErrors(page);
  await context.close();
});

test("four-player shogi without highlights: a move into the zone asks whether to promote", async () => {
  const { context, page } = await profile(browser, stack.base);
  const shot = shooter("shogi4-promote");
  await roomWithoutHighlights(page, "shogi4");
  // The game's options read as words, not identifiers ("last_one_standing").
  assert.deepEqual(await page.locator('[data-testid="option-ending"] option').evaluateAll((els) => els.map((e) => `${e.value}=${e.textContent}`)),
    ["two_mates=two mates", "last_one_standing=last one standing"]);
  await page.click('[data-testid="start-game"]');
  await page.waitForSelector('[data-square="5g"] [data-piece="P"]');
  assert.ok(await waitMyTurn(page));
  // South's silver (facing north) to 7c, in its zone: the client cannot know the move is
  // illegal, but must ask, as a player could not promote by clicks otherwise.
  await page.click('[data-square="7i"]');
  await page.click('[data-square="7c"]');
  await page.waitForSelector('[data-testid="promotion"]');
  assert.deepEqual(await page.locator('[data-testid="promote-option"]').evaluateAll((els) => els.map((e) => `${e.textContent}=${e.dataset.move}`)),
    ["Promote=7i7c+", "Do not promote=7i7c"]);
  // The buttons say what is being chosen: a visible heading that also names their group.
  const chooser = page.getByRole("group", { name: "Promote?", exact: true });
  assert.equal(await chooser.getByRole("button").count(), 2, 'the two choices in a group named "Promote?"');
  assert.ok(await chooser.getByRole("heading", { name: "Promote?", exact: true }).isVisible(), 'a visible heading "Promote?"');
  await shot(page, "asked");
  await page.click('[data-testid="promote-option"][data-move="7i7c+"]');
  await page.waitForFunction(() => /7i7c\+ refused/.test(document.querySelector('[data-testid="error"]')?.textContent ?? ""));
  // Outside the zone nothing is asked: the move is played.
  await page.click('[data-square="5g"]');
  await page.click('[data-square="5f"]');
  await waitMoves(page, 1);
  assert.equal(await page.locator('[data-testid="promotion"]').count(), 0);
  noErrors(page);
  await context.close();
});
