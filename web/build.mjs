// Bundles the site (dist/site) and the dev gateway (dist/gateway) with esbuild.
// Run by `npm run build` after the client code is generated from proto/ (npm run gen).
import { build } from "esbuild";
import { copyFileSync, mkdirSync, rmSync } from "node:fs";

rmSync("dist", { recursive: true, force: true });
mkdirSync("dist/site", { recursive: true });
for (const f of ["index.html", "style.css", "favicon.svg"]) copyFileSync(`src/${f}`, `dist/site/${f}`);

await build({
  entryPoints: ["src/main.ts"],
  bundle: true,
  format: "esm",
  target: "es2020",
  minify: true,
  sourcemap: true,
  outfile: "dist/site/app.js",
  logLevel: "warning",
});

await build({
  entryPoints: ["gateway/main.ts"],
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node18",
  outfile: "dist/gateway/gateway.mjs",
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  logLevel: "warning",
});
console.log("web: built dist/site and dist/gateway");
