// Debian's Chromium driven by playwright-core (no browser download), one isolated
// profile per player, and screenshots of every step into the artifacts folder.
import { chromium } from "playwright-core";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { BIN } from "./stack.mjs";

export const ARTIFACTS = process.env.TABLERO_WEB_ARTIFACTS ?? join(BIN, "..", "web-artifacts");
const EXECUTABLE = process.env.TABLERO_CHROMIUM ?? "/usr/bin/chromium";

// Without these Chromium waits on outbound connections a closed network never answers.
const ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"];

export async function launch() {
  mkdirSync(ARTIFACTS, { recursive: true });
  return chromium.launch({ executablePath: EXECUTABLE, headless: true, args: ARGS });
}

/** Pages of the running scenario: screenshotted when it fails. */
export const openPages = new Set();

export async function shootOnFailure(name) {
  let n = 0;
  for (const page of openPages) {
    n++;
    await page.screenshot({ path: join(ARTIFACTS, `FAILED-${name}-page${n}.png`), fullPage: true }).catch(() => {});
    // What the page told the player (messages fade before the screenshot) and its console.
    if (page.log.length) console.log(`# page${n} console:\n#   ${page.log.join("\n#   ")}`);
  }
}

/** A fresh profile (own localStorage, so its own guest) with one page. */
export async function profile(browser, base, { phone = false } = {}) {
  const context = await browser.newContext({
    baseURL: base,
    acceptDownloads: true,
    ...(phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : { viewport: { width: 1100, height: 900 } }),
  });
  const page = await context.newPage();
  openPages.add(page);
  context.on("close", () => openPages.delete(page));
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(String(e)));
  page.log = [];
  page.on("console", (m) => page.log.push(`${new Date().toISOString().slice(11, 23)} ${m.type()}: ${m.text()}`.slice(0, 300)));
  page.on("dialog", (d) => d.accept());
  return { context, page };
}

export function shooter(scenario) {
  let n = 0;
  return async (page, step) => {
    n++;
    await page.screenshot({ path: join(ARTIFACTS, `${scenario}-${String(n).padStart(2, "0")}-${step}.png`), fullPage: true });
  };
}

// ---- page helpers ----

/** Plays `kind` against the CPU from the home page, as far as the board. */
export async function newGame(page, kind, { level = "1", seats } = {}) {
  await page.goto("/");
  await page.selectOption('[data-testid="game-kind"]', kind);
  await page.selectOption('[data-testid="cpu-level"]', level);
  if (seats) await page.selectOption('[data-testid="seat-count"]', String(seats));
  await page.click('[data-testid="play-cpu"]');
  await page.waitForURL(/\/room\//);
  await page.waitForSelector('[data-testid="board"]');
}

/** Creates a room for `kind` from the home page (the page lands in the room's lobby). */
export async function createRoom(page, kind) {
  await page.goto("/");
  await page.selectOption('[data-testid="game-kind"]', kind);
  await page.click('[data-testid="create-room"]');
}

/** The friend opens the host's invite link; returns once the host sees two members. */
export async function joinByInvite(host, friend) {
  const href = await host.locator('[data-testid="invite-link"]').getAttribute("href");
  await friend.goto(href);
  await friend.waitForURL(/\/room\//);
  await host.waitForFunction(() => document.querySelectorAll('[data-testid="member"]').length === 2);
}

/**
 * On a 360x640 phone every room setting's label keeps to one line (an option is named
 * shortly, its long explanation a smaller hint below) and the page fits the screen's width.
 * The viewport is put back as it was.
 */
export async function settingsFitSmallPhone(page) {
  const was = page.viewportSize();
  await page.setViewportSize({ width: 360, height: 640 });
  const wrapped = await page.locator('[data-testid="settings"] label > :not(select, input)').evaluateAll((els) => els
    .filter((e) => e.getBoundingClientRect().height > 1.5 * parseFloat(getComputedStyle(e).lineHeight)).map((e) => e.textContent));
  assert.deepEqual(wrapped, [], "every setting's label on one line");
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 360, `the settings fit a 360 px screen (${width}px)`);
  await page.setViewportSize(was);
}

/** What the page told the player (every message is also logged), matching `re`. */
export const said = (page, re) => page.log.filter((l) => / tablero: /.test(l) && re.test(l));

/** Fails on any uncaught error in the page. */
export const noErrors = (page) => assert.deepEqual(page.errors, [], "no uncaught errors in the page");

export const moveCount = (page) => page.locator('[data-testid="move-list"] [data-testid="move"]').count();

export async function waitMoves(page, n, timeout = 30000) {
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="move-list"] [data-testid="move"]').length >= n, n, { timeout });
}

export async function waitMyTurn(page, timeout = 30000) {
  await page.waitForFunction(() => {
    const s = document.querySelector('[data-testid="status"]');
    return s && (s.textContent.startsWith("Your turn") || s.textContent.startsWith("Game over"));
  }, null, { timeout });
  return !(await page.locator('[data-testid="status"]').textContent()).startsWith("Game over");
}

export const status = (page) => page.locator('[data-testid="status"]').textContent();

/**
 * Plays one move by clicks: tries the player's pieces (cells matching `mine`) until one
 * shows legal targets, then clicks the first target (and a promotion or chain end if asked).
 * Returns [from, to].
 */
/** Up to `rounds` times: waits for our turn, clicks some move of a piece matching `mine`
 * (clickSomeMove) and waits for at least one answer; a screenshot after each round. */
export async function playRounds(page, shot, rounds, mine, cellAttr) {
  for (let i = 0; i < rounds; i++) {
    if (!(await waitMyTurn(page, 60000))) break;
    const n = await moveCount(page);
    await clickSomeMove(page, mine, cellAttr);
    await waitMoves(page, n + 2, 60000);
    await shot(page, `round-${i + 1}`);
  }
}

export async function clickSomeMove(page, mine, cellAttr) {
  const cells = await page.locator(mine).evaluateAll((els, attr) => els.map((e) => e.closest(`[${attr}]`).getAttribute(attr)), cellAttr);
  for (const from of cells) {
    await page.click(`[${cellAttr}="${from}"]`);
    try {
      await page.waitForSelector(".legal", { timeout: 1500 });
    } catch {
      continue;
    }
    const to = await page.locator(".legal").first().getAttribute(cellAttr);
    await page.click(`[${cellAttr}="${to}"]`);
    // A promotion choice, or a Chinese Checkers chain waiting for its end.
    for (let i = 0; i < 8; i++) {
      if (await page.locator('[data-testid="promote-option"]').count()) await page.locator('[data-testid="promote-option"]').first().click();
      else if (await page.locator(".legal").count() && (await page.locator('[data-testid="submit-path"]').count())) {
        await page.locator('[data-testid="submit-path"]').click();
      } else break;
      await page.waitForTimeout(100);
    }
    return [from, to];
  }
  throw new Error(`no piece matching ${mine} has a legal move`);
}
