// Two checks of the import graph of electron/ and renderer/ (docs/architecture.md, "Rooms and
// zones"), run by `npm run lint` after ESLint's zones:
// - no import cycle (madge over every .ts and .tsx file, type-only imports included), but those
//   listed in KNOWN_CYCLES;
// - every entry of the zones' KNOWN_EXCEPTIONS (eslint.config.mjs) still covers an import, so an
//   exception is deleted with the import it was made for.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';
import { KNOWN_EXCEPTIONS } from '../eslint.config.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Cycles known today, each as the files it runs through, in a room being reworked elsewhere
 * (issue 27). A cycle through other files, or through more, fails; so does an entry whose cycle
 * is gone (delete it then).
 */
const KNOWN_CYCLES = [];

const graph = await madge(['electron', 'renderer'], {
  baseDir: root,
  fileExtensions: ['ts', 'tsx'],
  tsConfig: join(root, 'tsconfig.json'),
  detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
});
const problems = [];

// A local import madge could not resolve would hide its cycles.
for (const path of graph.warnings().skipped.filter((p) => p.startsWith('.'))) {
  problems.push(`cannot resolve ${path}`);
}

const cycles = graph.circular();
const knownIndex = (cycle) =>
  KNOWN_CYCLES.findIndex((files) => cycle.every((file) => files.includes(file)));
for (const cycle of cycles.filter((c) => knownIndex(c) < 0)) {
  problems.push(`import cycle ${cycle.join(' > ')}`);
}
KNOWN_CYCLES.forEach((files, i) => {
  if (!cycles.some((cycle) => knownIndex(cycle) === i)) {
    problems.push(`no cycle through ${files.join(', ')} any more: delete it from KNOWN_CYCLES`);
  }
});

// A path of KNOWN_EXCEPTIONS ending in / is a folder: it covers every file below it.
const covers = (path, file) => (path.endsWith('/') ? file.startsWith(path) : file === path);
const imports = Object.entries(graph.obj()).flatMap(([file, targets]) =>
  targets.map((target) => [file, target]),
);
for (const { from, to } of KNOWN_EXCEPTIONS) {
  for (const path of [to].flat()) {
    if (!imports.some(([file, target]) => covers(from, file) && covers(path, target))) {
      problems.push(`no import from ${from} to ${path} any more: delete it from KNOWN_EXCEPTIONS`);
    }
  }
}

const files = Object.keys(graph.obj()).length;
if (problems.length > 0) {
  for (const problem of problems) console.error(`check-imports: ${problem}`);
  process.exit(1);
}
console.log(
  `check-imports: ${files} files of electron/ and renderer/, no new import cycle` +
    ` (known: ${cycles.length} cycle paths through ${KNOWN_CYCLES.length} group(s) of files),` +
    ` ${KNOWN_EXCEPTIONS.length} zone exception(s), each still in use`,
);
