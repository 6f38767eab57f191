// The browser tests' harness: the services and the gateway (stack.mjs) and Chromium
// (browser.mjs), started once before the first scenario and stopped after the last, and
// `test`, which registers a scenario. The scenarios are in scenarios/; run.mjs runs them all.
import { after, before, test as nodeTest } from "node:test";
import { startStack } from "./stack.mjs";
import { launch, openPages, shootOnFailure, ARTIFACTS } from "./browser.mjs";

/** The running services (their site's address: stack.base) and browser, once `before` ran. */
export let stack;
export let browser;

/** Registers a scenario: on failure, screenshots of its open pages (FAILED-*.png), then its pages closed. */
export function test(name, fn) {
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
