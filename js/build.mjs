// Bundles the widget front end for anywidget: one ESM file and one CSS file in
// ../rummy_widget/static/ (git-ignored; built by hatch-jupyter-builder on install).
import { build } from "esbuild";

const watch = process.argv.includes("--watch");
const common = { bundle: true, minify: true, logLevel: "info", target: ["es2020"] };

await build({
  ...common,
  entryPoints: ["src/index.ts"],
  outfile: "../rummy_widget/static/widget.js",
  format: "esm",
  loader: { ".json": "json" },
});
await build({
  ...common,
  entryPoints: ["src/widget.css"],
  outfile: "../rummy_widget/static/widget.css",
});
if (watch) console.log("watch mode is not supported; rerun npm run build");
