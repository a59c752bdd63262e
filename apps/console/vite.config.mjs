// Builds the web console (apps/console) into dist/console, which the API serves at `/`.
// The build fails when the JavaScript a first visit loads (the entry chunk and the chunks it
// imports statically), gzip-compressed, exceeds FIRST_LOAD_BUDGET; chunks loaded later (the chart
// library, imported when a plot is shown) are outside the budget.
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = dirname(fileURLToPath(import.meta.url));
export const FIRST_LOAD_BUDGET = 250 * 1024;

/** Fails the build over budget and writes the figure to first-load.json beside the assets. */
function firstLoadBudget() {
  return {
    name: 'first-load-budget',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byName = new Map(chunks.map((c) => [c.fileName, c]));
      const seen = new Set();
      const visit = (chunk) => {
        if (seen.has(chunk.fileName)) return;
        seen.add(chunk.fileName);
        for (const name of chunk.imports) if (byName.has(name)) visit(byName.get(name));
      };
      for (const chunk of chunks) if (chunk.isEntry) visit(chunk);
      let gzipBytes = 0;
      for (const name of seen) gzipBytes += gzipSync(byName.get(name).code, { level: 9 }).length;
      const figure = { files: [...seen].sort(), gzipBytes, budgetBytes: FIRST_LOAD_BUDGET };
      this.emitFile({ type: 'asset', fileName: 'first-load.json', source: `${JSON.stringify(figure, null, 2)}\n` });
      if (gzipBytes > FIRST_LOAD_BUDGET)
        this.error(`The first load is ${gzipBytes} bytes of gzip-compressed JavaScript, over the budget of ${FIRST_LOAD_BUDGET}`);
    },
    // The API sends these to browsers that take gzip (libs/platform/src/http/console.ts).
    writeBundle(options, bundle) {
      for (const file of Object.values(bundle)) {
        if (!/\.(js|css|html)$/.test(file.fileName)) continue;
        const source = file.type === 'chunk' ? file.code : file.source;
        writeFileSync(resolve(options.dir, `${file.fileName}.gz`), gzipSync(source, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  root: here,
  base: '/',
  logLevel: 'warn',
  plugins: [firstLoadBudget()],
  build: { outDir: resolve(here, '../../dist/console'), emptyOutDir: true, sourcemap: false, target: 'es2022' },
});
