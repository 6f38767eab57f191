// Browser tests: real Chromium against real service processes, a real PostgreSQL and the
// dev gateway (see stack.mjs). Screenshots of every step go to the artifacts folder
// (TABLERO_WEB_ARTIFACTS, default <build>/web-artifacts). Run: node web/tests/run.mjs;
// one scenario: node --test-name-pattern="quick match" web/tests/run.mjs
//
// harness.mjs starts the services and Chromium and registers each scenario; the scenarios
// run in the order of these modules, and of each module's tests.
import "./harness.mjs";
import "./scenarios/vs-cpu.mjs";
import "./scenarios/together.mjs";
import "./scenarios/input.mjs";
