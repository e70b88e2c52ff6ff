// Bundles the widget front end for anywidget: one ESM file and one CSS file in
// ../rummy_widget/static/ (git-ignored; built by hatch-jupyter-builder on install).
import { readFile } from "node:fs/promises";
import { build } from "esbuild";

// The translation tables are shared with Python and hold far more than the table needs;
// keep only the front end's keys so the bundle stays small.
const FRONT_END_KEYS = /^(ui\.|log\.|card\.|error\.(draw_first|already_drawn|stock_empty|discard_empty)$)/;

const localesOnlyFrontEndKeys = {
  name: "locales-front-end-keys",
  setup(b) {
    b.onLoad({ filter: /locales[\\/][a-z]+\.json$/ }, async (args) => {
      const table = JSON.parse(await readFile(args.path, "utf8"));
      const kept = Object.fromEntries(Object.entries(table).filter(([k]) => FRONT_END_KEYS.test(k)));
      return { contents: JSON.stringify(kept), loader: "json" };
    });
  },
};

const common = { bundle: true, minify: true, logLevel: "info", target: ["es2020"] };

await build({
  ...common,
  entryPoints: ["src/index.ts"],
  outfile: "../rummy_widget/static/widget.js",
  format: "esm",
  plugins: [localesOnlyFrontEndKeys],
});
await build({
  ...common,
  entryPoints: ["src/widget.css"],
  outfile: "../rummy_widget/static/widget.css",
});
