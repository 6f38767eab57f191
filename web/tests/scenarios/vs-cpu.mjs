// Scenarios of one player against the CPU in each game, from the first move to a result or
// the replay.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test, stack, browser } from "../harness.mjs";
import { profile, shooter, waitMoves, waitMyTurn, status, clickSomeMove, newGame, said, noErrors, playRounds } from "../browser.mjs";

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
  // The CPU's seat says "CPU" once, in its name (not a "CPU" badge after it too), nor is
  // each of its moves marked "cpu": the mark is for a CPU playing a person's seat.
  assert.equal(await page.locator('[data-testid="seat"][data-seat="1"]').textContent(), "CPU (level 1) · Black");
  assert.deepEqual(await page.locator('[data-testid="move-list"] li').evaluateAll((els) => els.map((e) => e.textContent).filter((t) => /cpu$/.test(t))), [], 'no move marked "cpu"');
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
  // The replay says who played which side and how the game ended for the viewer, as the
  // game page did (it named the players only, and the ending as a bare "· resignation").
  assert.match(await page.locator('[data-testid="replay-players"]').textContent(), /^Guest \d+ \(White\) · CPU \(level 1\) \(Black\)$/);
  assert.equal(await page.locator('[data-testid="result"]').textContent(), "You lost (resignation)");
  assert.equal(await page.locator('[data-testid="replay-ply"]').textContent(), "Move 6 of 6");
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
  await playRounds(page, shot, 3, '[data-owner="0"][data-piece="P"], [data-owner="0"][data-piece="S"], [data-owner="0"][data-piece]', "data-square");
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
  await playRounds(page, shot, 2, '.marble[data-owner="0"]', "data-hole");
  await waitMyTurn(page, 60000);
  const seats = await page.locator('[data-testid="move"]').evaluateAll((els) => new Set(els.map((e) => e.dataset.seat)).size);
  assert.equal(seats, 6);
  await checkReplay(page, start, shot);
  noErrors(page);
  await context.close();
});
