// Scenarios of a room's settings and of how moves are entered and refused: the turn timer,
// legal-move highlights off, a jump chain, the server out of reach, shogi promotion.
import assert from "node:assert/strict";
import { test, stack, browser } from "../harness.mjs";
import { profile, shooter, moveCount, waitMoves, waitMyTurn, status, newGame, noErrors, createRoom, settingsFitSmallPhone } from "../browser.mjs";

/** Creates a room of `kind` and turns legal-move highlights off; returns the settings version before. */
async function roomWithoutHighlights(page, kind) {
  await createRoom(page, kind);
  const v0 = Number(await page.locator('[data-testid="settings"]').getAttribute("data-version"));
  await page.uncheck('[data-testid="setting-legal"]');
  await page.waitForSelector(`[data-testid="settings"][data-version="${v0 + 1}"]`);
  return v0;
}

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

test("Chinese Checkers jump entered hole by hole without highlights", async () => {
  const { context, page } = await profile(browser, stack.base);
  const shot = shooter("checkers-chain");
  const v0 = await roomWithoutHighlights(page, "checkers");
  // Who moves first is offered by the seats' names, not "seat 0".
  assert.deepEqual(await page.locator('[data-testid="setting-first"] option').allTextContents(), ["Red", "Blue", "Yellow", "Green", "Purple", "Black"]);
  // Each setting's label keeps to one line on a small phone.
  await settingsFitSmallPhone(page);
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

test("four-player shogi without highlights: a move into the zone asks whether to promote; the game ends at its move limit", async () => {
  const { context, page } = await profile(browser, stack.base);
  const shot = shooter("shogi4-promote");
  const v0 = await roomWithoutHighlights(page, "shogi4");
  // Four moves, ours and the three CPUs': the game ends soon after the promotion question.
  await page.fill('[data-testid="option-move_limit"]', "4");
  await page.locator('[data-testid="option-move_limit"]').dispatchEvent("change");
  await page.waitForSelector(`[data-testid="settings"][data-version="${v0 + 2}"]`);
  // The game's options read in the catalogue's words, not identifiers ("last_one_standing"),
  // and are sent as its values.
  const choices = (id) => page.locator(`[data-testid="${id}"] option`).evaluateAll((els) => els.map((e) => `${e.value}=${e.textContent}`));
  assert.deepEqual(await choices("option-ending"), ["two_mates=Two mates", "last_one_standing=Last one standing"]);
  assert.deepEqual(await choices("option-pawn_before_flipped_king_forbidden"), ["on=On", "off=Off"]);
  assert.deepEqual(await choices("setting-turn"), ["0=None", "30=30 s", "60=60 s"]);
  // Each setting's label keeps to one line on a small phone: the pawn rule has the
  // catalogue's short label (its identifier, pawn_before_flipped_king_forbidden, took two
  // lines), "No pawn before flipped king", with what it means as the hint below.
  await settingsFitSmallPhone(page);
  const pawnRule = page.getByRole("combobox", { name: "No pawn before flipped king", exact: true });
  assert.equal(await pawnRule.count(), 1, 'a setting named "No pawn before flipped king"');
  assert.match(await pawnRule.evaluate((c) => document.getElementById(c.getAttribute("aria-describedby") ?? "")?.textContent ?? ""), /^a pawn may not be dropped/);
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
  await page.waitForSelector('[data-testid="result"]', { timeout: 60000 });
  const place = (await page.locator('[data-testid="result"]').textContent()).match(/^You placed (\d)\. Places: /)?.[1];
  assert.ok(place, "the result line gives our place");
  await shot(page, "move-limit");
  // Home's "your games" gives our place in the four, not the whole order again after the
  // list of players (it named every player twice).
  await page.goto("/");
  await page.waitForSelector('[data-testid="my-games"] a');
  assert.match(await page.locator('[data-testid="my-games"] a').first().textContent(),
    new RegExp(`^Four-player Shogi · Guest \\d+ vs CPU \\(level 3\\) vs CPU \\(level 3\\) vs CPU \\(level 3\\) · You placed ${place} of 4 \\(move limit\\)$`));
  await shot(page, "your-games");
  // Its replay names each player's side and gives the whole order, as the game page did.
  await page.locator('[data-testid="my-games"] a').first().click();
  await page.waitForSelector('[data-testid="replay-ply"]');
  assert.match(await page.locator('[data-testid="replay-players"]').textContent(), /^Guest \d+ \(South\) · CPU \(level 3\) \(West\) · CPU \(level 3\) \(North\) · CPU \(level 3\) \(East\)$/);
  assert.ok((await page.locator('[data-testid="result"]').textContent()).startsWith(`You placed ${place}. Places: `));
  await shot(page, "replay");
  noErrors(page);
  await context.close();
});
