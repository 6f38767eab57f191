// Scenarios of players together: an invite link, a reload and an absence, a quick match,
// four-player shogi from another seat.
import assert from "node:assert/strict";
import { GRACE_SECONDS } from "../stack.mjs";
import { test, stack, browser } from "../harness.mjs";
import { profile, shooter, moveCount, waitMoves, waitMyTurn, status, clickSomeMove, said, noErrors, createRoom, joinByInvite, settingsFitSmallPhone } from "../browser.mjs";

test("invite link: the friend joins from another profile and sees the host's move; spectator, draw offer, rematch", async () => {
  const host = await profile(browser, stack.base);
  const friend = await profile(browser, stack.base, { phone: true });
  const shot = shooter("invite");
  await createRoom(host.page, "chess");
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
  await settingsFitSmallPhone(friend.page);
  const drawMode = friend.page.getByRole("combobox", { name: "Draw mode", exact: true });
  assert.equal(await drawMode.count(), 1, 'a setting named "Draw mode"');
  // Its choices read as words, the acronym as one ("FIDE", not "fide"); the values sent stay the catalogue's.
  assert.deepEqual(await drawMode.locator("option").evaluateAll((els) => els.map((e) => `${e.value}=${e.textContent}`)), ["site=Site", "fide=FIDE"]);
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

test("reload reclaims the seat; an absent player's seat is shown as played by the CPU", async () => {
  const host = await profile(browser, stack.base);
  const friend = await profile(browser, stack.base);
  const shot = shooter("reload");
  await createRoom(host.page, "chess");
  await joinByInvite(host.page, friend.page);
  const room = friend.page.url();
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
  // The CPU's move for the friend is marked as such.
  assert.match(await host.page.locator('[data-testid="move-list"] li').nth(3).textContent(), / cpu$/, 'the move played for the friend marked "cpu"');
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
  // paired with her absent self, a game the CPU plays for her). Her cancel never gets
  // through (as when the tab is closed at once): her search is left behind, out of
  // pairing while she is away.
  await a.page.route(/CancelQueue$/, (r) => r.abort());
  await queue(a.page);
  await a.page.click('[data-testid="create-room"]');
  await a.page.waitForSelector('[data-testid="notice"]:has-text("Quick match cancelled")');
  await a.page.unroute(/CancelQueue$/);
  await a.page.goto("/");
  await named(b.page, `Ben${tag}`);
  await queue(b.page);
  // Back, Ana looks again: the search left behind is replaced, not "already waiting".
  await queue(a.page, false);
  await shot(a.page, "waiting");
  await a.page.waitForURL(/\/room\//, { timeout: 30000 });
  await b.page.waitForURL(/\/room\//, { timeout: 30000 });
  assert.deepEqual(said(a.page, /waiting ticket/), []);
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
  const board = b.page.locator('[data-testid="leaderboard"]');
  await b.page.waitForFunction(() => /Nobody on the Chess board yet|#/.test(document.querySelector('[data-testid="leaderboard"]').textContent));
  assert.equal(await b.page.getByLabel("Leaderboard for").count(), 1, "the leaderboard's game picker has a label");
  // An empty board says which one it is (every pool said the same sentence, so a change of
  // pool showed nothing), and a slow answer for a pool left behind does not replace the
  // board chosen after it.
  let slow;
  const answered = new Promise((res) => (slow = res));
  let first = true;
  await b.page.route(/GetLeaderboard$/, async (r) => {
    if (!first) return r.continue();
    first = false;
    await new Promise((res) => setTimeout(res, 1500));
    await r.continue();
    slow();
  });
  await b.page.getByLabel("Leaderboard for").selectOption({ label: "Chinese Checkers" });
  await b.page.getByLabel("Leaderboard for").selectOption({ label: "Shogi (pairs)" });
  await b.page.waitForSelector('[data-testid="leaderboard"]:has-text("Shogi (pairs)")');
  await answered;
  await b.page.waitForTimeout(300);
  assert.match(await board.textContent(), /^Nobody on the Shogi \(pairs\) board yet: it lists players whose rating is settled \(±150 at most\)\.$/);
  await b.page.unroute(/GetLeaderboard$/);
  // "Your games" says how the game went for the player, not only how it ended.
  await b.page.waitForSelector('[data-testid="my-games"] a');
  assert.match(await b.page.locator('[data-testid="my-games"] a').first().textContent(), /^Chess · (Ana|Ben)\d+ vs (Ana|Ben)\d+ · You won \(resignation\)$/);
  await shot(b.page, "home-ratings");
  // The game was resigned before a move: its replay (from "your games") says "No moves yet"
  // as the live game does, not an empty move list's thin white bar.
  await b.page.locator('[data-testid="my-games"] a').first().click();
  await b.page.waitForSelector('[data-testid="replay-ply"]');
  assert.equal(await b.page.locator('[data-testid="move-list"]').count(), 0, "no empty move list drawn");
  assert.ok(await b.page.getByText("No moves yet", { exact: true }).isVisible(), '"No moves yet" shown');
  await shot(b.page, "replay-no-moves");
  noErrors(a.page);
  noErrors(b.page);
  await a.context.close();
  await b.context.close();
});

test("four-player shogi seen from West: the board and hands turn with the seat", async () => {
  const host = await profile(browser, stack.base);
  const friend = await profile(browser, stack.base);
  const shot = shooter("shogi4-west");
  await createRoom(host.page, "shogi4");
  await joinByInvite(host.page, friend.page);
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
